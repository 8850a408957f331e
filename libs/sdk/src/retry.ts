/** How requests are retried: 429 and 503 (honouring Retry-After) and lost connections. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  maxRetries: number;
  /** First backoff when the server names no wait, doubled per retry. Default 250 ms. */
  baseDelayMs: number;
  /** Longest wait between attempts, Retry-After included. Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') {
    return undefined;
  }
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) {
    return seconds;
  }
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/** The wait before retry number `retry` (0-based): the server's word, else jittered exponential. */
export function backoffMs(policy: RetryPolicy, retry: number, retryAfterS?: number): number {
  if (retryAfterS !== undefined) {
    return Math.min(policy.maxDelayMs, retryAfterS * 1000);
  }
  const exponential = policy.baseDelayMs * 2 ** retry;
  return Math.min(policy.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
