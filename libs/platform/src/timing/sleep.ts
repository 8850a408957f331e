/** The reason a timing helper rejects with when its signal aborts (the signal's own reason if it has one). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

export interface SleepOptions {
  /** Aborting rejects the sleep at once with the signal's reason. */
  signal?: AbortSignal;
  /** Whether the timer keeps the process alive (default true, as plain setTimeout). */
  ref?: boolean;
}

/** Resolves after `ms` milliseconds; rejects early with the signal's reason if it aborts. */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  options: Omit<SleepOptions, 'signal'> = {},
): Promise<void> {
  if (signal?.aborted) {
    return Promise.reject(abortReason(signal));
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    if (options.ref === false) {
      timer.unref();
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
