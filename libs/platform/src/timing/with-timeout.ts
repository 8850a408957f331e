/** What `withTimeout` rejects with when the work outlasts its time. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';

  constructor(
    /** The time the work was given. */
    readonly ms: number,
    message = `timed out after ${ms} ms`,
  ) {
    super(message);
  }
}

export interface WithTimeoutOptions {
  /** The TimeoutError's message (default `timed out after <ms> ms`). */
  message?: string;
}

/**
 * Settles as `work` does, or rejects with a TimeoutError after `ms`. The work
 * is not canceled (a promise cannot be): give it a signal of its own if it
 * must stop. The timer is cleared when the work settles and never holds the
 * process open.
 */
export async function withTimeout<T>(
  work: Promise<T> | (() => Promise<T>),
  ms: number,
  options: WithTimeoutOptions = {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms, options.message)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([typeof work === 'function' ? work() : work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
