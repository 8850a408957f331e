/**
 * How requests are retried: 429, 502, 503 and 504 (honouring Retry-After) and
 * lost connections, for requests that may be sent twice. Bounded: at most
 * `maxRetries` retries, none of them after a Retry-After longer than `maxDelayMs`.
 */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  maxRetries: number;
  /** First backoff when the server names no wait, doubled per retry. Default 250 ms. */
  baseDelayMs: number;
  /** Longest wait between attempts; an answer asking for longer is not retried. Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

/** Overload and the gateways before the API (a proxy's 502, a load balancer's 504). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

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

/**
 * The wait before retry number `retry` (0-based): the server's word, else
 * jittered exponential; undefined when the server asks for longer than the
 * policy waits (retrying sooner would only be refused again).
 */
export function backoffMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterS?: number,
): number | undefined {
  if (retryAfterS !== undefined) {
    const asked = retryAfterS * 1000;
    return asked > policy.maxDelayMs ? undefined : asked;
  }
  const exponential = policy.baseDelayMs * 2 ** retry;
  return Math.min(policy.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
