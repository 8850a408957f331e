import type { HedgeContext } from './hedge-context';

/**
 * When a hedge stops trying: hedge_timeout_ms after it started (decisions
 * 2), unless the timeout strikes while an attempt's fate is in doubt (its
 * answer overdue or lost). Whether that attempt filled is then known only
 * once the venue answers or its request can no longer land (`settlesByMs`:
 * Aster's 10 s nonce window; Extended and Lighter, which bound no request,
 * the unbounded wait), which may be after the timeout. Rather than fail the
 * trade for size the venue may have hedged, or leave it unhedged where a
 * retry is safe, the deadline waits for that fate (at most its request's
 * bound plus a hedge timeout) and then gives the hedge one more whole
 * timeout; this happens once per hedge. The retries it allows carry the
 * extension on their hedge_sent (`deadline_extended_ms`).
 */
export class HedgeDeadline {
  private timer: NodeJS.Timeout;
  private atMs: number;
  private readonly startedAtMs: number;
  private awaitingFate = false;
  private moved = false;
  private extendedByMs = 0;

  constructor(
    private readonly context: Pick<HedgeContext, 'clock' | 'venue' | 'logger'>,
    private readonly onPassed: () => void,
  ) {
    this.startedAtMs = context.clock.now();
    this.atMs = this.startedAtMs + context.venue.timeoutMs;
    this.timer = setTimeout(() => this.onPassed(), context.venue.timeoutMs);
  }

  /** How far past hedge_timeout_ms the hedge may now run (0: not moved). */
  get extendedMs(): number {
    return this.extendedByMs;
  }

  /** Whether the timeout struck and the hedge waits for an attempt's fate. */
  get awaiting(): boolean {
    return this.awaitingFate;
  }

  get passed(): boolean {
    return !this.awaitingFate && this.context.clock.now() >= this.atMs;
  }

  /** How long the hedge has run. */
  get waitedMs(): number {
    return this.context.clock.now() - this.startedAtMs;
  }

  /**
   * The timeout struck (or a lost answer came after it) with attempt
   * `attempt` in doubt: true when the hedge waits for its fate instead of
   * timing out; `settlesByMs` (epoch ms), when known, caps the wait.
   */
  awaitFate(attempt: number, settlesByMs: number | null): boolean {
    if (this.moved) {
      return false;
    }
    const { unboundedRequestWaitMs, timeoutMs } = this.context.venue;
    const fateInMs = settlesByMs === null ? unboundedRequestWaitMs : settlesByMs - Date.now();
    if (fateInMs <= 0) {
      return false;
    }
    if (!this.awaitingFate) {
      this.context.logger.warn(
        { attempt, fate_in_ms: Math.round(fateInMs) },
        'hedge timeout struck with an attempt in doubt: waiting for its fate, then one more timeout',
      );
    }
    this.awaitingFate = true;
    this.arm(fateInMs + timeoutMs, () => {
      // Its fate did not come in time either: the hedge times out now.
      this.awaitingFate = false;
      this.moved = true;
      this.onPassed();
    });
    return true;
  }

  /** The awaited attempt's fate is known: one more whole timeout from now. */
  fateKnown(): void {
    if (!this.awaitingFate) {
      return;
    }
    this.awaitingFate = false;
    this.moved = true;
    const { timeoutMs } = this.context.venue;
    this.atMs = this.context.clock.now() + timeoutMs;
    this.extendedByMs = Math.ceil(this.atMs - this.startedAtMs - timeoutMs);
    this.arm(timeoutMs, () => this.onPassed());
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  private arm(ms: number, then: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(then, ms);
  }
}
