import { useEffect, useRef, useState } from 'react';
import { describeError } from './api-error';

/** The latest answer of a read made now and every `everyMs`, or why the last one failed. */
export interface PolledRead<T> {
  value: T | null;
  error: string | null;
}

/**
 * Reads now and again every `everyMs` while the component is shown; a failed
 * read keeps the last answer and says why, the next good one clears it.
 * Each read calls the latest `read` given (a session's renewed client);
 * a change of `key` (what the read is of) starts over at once.
 */
export function usePolledRead<T>(read: () => Promise<T>, everyMs: number, key = ''): PolledRead<T> {
  const [state, setState] = useState<PolledRead<T>>({ value: null, error: null });
  const latest = useRef(read);
  useEffect(() => {
    latest.current = read;
  });
  useEffect(() => {
    let shown = true;
    const once = () =>
      latest.current().then(
        (value) => shown && setState({ value, error: null }),
        (failure: unknown) =>
          shown && setState((last) => ({ ...last, error: describeError(failure) })),
      );
    void once();
    const timer = setInterval(() => void once(), everyMs);
    return () => {
      shown = false;
      clearInterval(timer);
    };
  }, [everyMs, key]);
  return state;
}
