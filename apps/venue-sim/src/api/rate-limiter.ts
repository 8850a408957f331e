import { HttpFailure } from './http-kit';

interface SecondCount {
  second: number;
  accepted: number;
  rejected: number;
}

/** Seconds of history kept per account for the control endpoint. */
const HISTORY_SECONDS = 600;

/**
 * Per-account request limit on fixed one-second windows (wall-clock
 * seconds), the way venues publish "N requests per second per account". Past
 * the limit a request gets 429 with Retry-After until the next second. Every
 * request is counted, accepted or not, so a test can prove a client never
 * went over.
 */
export class RateLimiter {
  private readonly limits = new Map<string, number>();
  private readonly counts = new Map<string, SecondCount[]>();

  constructor(defaults: ReadonlyMap<string, number>) {
    for (const [venue, limit] of defaults) {
      this.limits.set(venue, limit);
    }
  }

  limitOf(venue: string): number {
    return this.limits.get(venue) ?? Number.POSITIVE_INFINITY;
  }

  setLimit(venue: string, perSecond: number): void {
    this.limits.set(venue, perSecond);
  }

  /** Counts one request of the account; throws the 429 when it is over the limit. */
  admit(venue: string, accountId: string, nowMs: number): void {
    const second = Math.floor(nowMs / 1000);
    const history = this.history(venue, accountId);
    let current = history[history.length - 1];
    if (!current || current.second !== second) {
      current = { second, accepted: 0, rejected: 0 };
      history.push(current);
      if (history.length > HISTORY_SECONDS) {
        history.shift();
      }
    }
    if (current.accepted >= this.limitOf(venue)) {
      current.rejected += 1;
      const retryAfterMs = (second + 1) * 1000 - nowMs;
      throw new HttpFailure(
        429,
        'rate_limited',
        `over ${this.limitOf(venue)} requests per second`,
        { retry_after_ms: retryAfterMs },
        { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      );
    }
    current.accepted += 1;
  }

  report(
    venue: string,
    accountId: string,
  ): { limit_per_s: number; max_accepted_per_s: number; seconds: SecondCount[] } {
    const seconds = [...this.history(venue, accountId)];
    return {
      limit_per_s: this.limitOf(venue),
      max_accepted_per_s: seconds.reduce((max, entry) => Math.max(max, entry.accepted), 0),
      seconds,
    };
  }

  clearCounts(): void {
    this.counts.clear();
  }

  private history(venue: string, accountId: string): SecondCount[] {
    const key = `${venue}\u0000${accountId}`;
    let history = this.counts.get(key);
    if (!history) {
      history = [];
      this.counts.set(key, history);
    }
    return history;
  }
}
