/** What a TokenBucket is built from: its clock, its options, its error and checks. */

/**
 * Time as the bucket sees it, injected so specs run on a manual clock.
 * `now` is monotonic integer milliseconds (never the wall clock, which jumps).
 */
export interface BucketClock {
  now(): number;
  /** Runs `fire` after `ms`; returns a function that cancels it. */
  schedule(ms: number, fire: () => void): () => void;
}

export const monotonicClock: BucketClock = {
  now: () => Number(process.hrtime.bigint() / 1_000_000n),
  schedule: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

export interface TokenBucketOptions {
  /**
   * Tokens the bucket can hold. With the default of 1 the bucket admits at most
   * `rate` requests in any half-open one-second window, which is what a venue
   * counting requests per account per second sees. A burst of b admits up to
   * `rate + b - 1` in such a window: spend it only with headroom in the rate.
   */
  burst?: number;
  /**
   * The period over which `rate` tokens refill. A venue counts requests by
   * when they arrive, not when they were sent: with exactly 1000 ms a request
   * delayed across a second boundary lands in the next second next to that
   * second's full share. The default adds 100 ms of transit margin (about 9 % of
   * the rate), so the venue sees at most `rate` in any of its seconds while
   * delays stay under it.
   */
  windowMs?: number;
  /**
   * How long a larger share waits before it applies (a smaller one applies at
   * once). A share grows because another trade released it, and that trade may
   * have spent it in the venue's current second: spending the growth at once
   * would put the account over its limit. Pass the window to be safe; 0 (the
   * default) applies growth at once.
   */
  growthDelayMs?: number;
  clock?: BucketClock;
}

export const DEFAULT_BUCKET_WINDOW_MS = 1100;

export class BucketClosedError extends Error {
  constructor(reason: string) {
    super(`token bucket closed: ${reason}`);
    this.name = 'BucketClosedError';
  }
}

export function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}
