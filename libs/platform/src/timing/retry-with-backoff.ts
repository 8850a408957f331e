import { abortReason, sleep } from './sleep';

export interface RetryAttempt {
  /** The error of the attempt that failed. */
  error: unknown;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long it waits before the next attempt. */
  delayMs: number;
}

export interface RetryOptions {
  /** Attempts in all, the first included (>= 1). */
  attempts: number;
  /** The wait before the second attempt. */
  baseDelayMs: number;
  /** No wait is longer than this (default: no cap). */
  maxDelayMs?: number;
  /** Each wait is the previous one times this (default 2; 1 for a constant delay). */
  factor?: number;
  /**
   * 0 (default) waits exactly the backoff; 1 waits a random share of it
   * ("full jitter"); in between, `delay * (1 - jitter * random)`.
   */
  jitter?: number;
  /** Whether this error is worth another attempt (default: every error is). */
  retryIf?: (error: unknown, attempt: number) => boolean;
  /** Aborting stops the retries: the wait rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called before each wait (to log or count the retry). */
  onRetry?: (retry: RetryAttempt) => void;
  /** The random source of the jitter (tests pin it). */
  random?: () => number;
}

/** The wait after the `attempt`-th failure (from 1), before jitter. */
export function backoffDelay(
  attempt: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'factor'>,
): number {
  const delay = options.baseDelayMs * (options.factor ?? 2) ** (attempt - 1);
  return Math.min(delay, options.maxDelayMs ?? Number.POSITIVE_INFINITY);
}

/**
 * Runs `work` until it succeeds, an error is not worth retrying, or the
 * attempts are spent; then rethrows the last error. `work` is told which
 * attempt it is (from 1).
 */
export async function retryWithBackoff<T>(
  work: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const random = options.random ?? Math.random;
  const jitter = options.jitter ?? 0;
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) {
      throw abortReason(options.signal);
    }
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= options.attempts || (options.retryIf && !options.retryIf(error, attempt))) {
        throw error;
      }
      const delayMs = Math.round(backoffDelay(attempt, options) * (1 - jitter * random()));
      options.onRetry?.({ error, attempt, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}
