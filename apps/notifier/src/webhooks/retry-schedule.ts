/**
 * When a delivery that failed is tried again: after the delays of
 * WEBHOOKS_RETRY_SCHEDULE_MS in turn (by default Standard Webhooks' 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over about 27 h), then
 * never: the delivery has failed.
 */
export class RetrySchedule {
  constructor(private readonly delaysMs: readonly number[]) {}

  /** Attempts a delivery gets in all. */
  get attempts(): number {
    return this.delaysMs.length + 1;
  }

  /** When the next attempt is due after `attemptsMade` failed ones; null when none is left. */
  nextAttemptAt(attemptsMade: number, now: Date): Date | null {
    const delay = this.delaysMs[attemptsMade - 1];
    return delay === undefined ? null : new Date(now.getTime() + delay);
  }
}
