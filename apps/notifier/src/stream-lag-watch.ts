/**
 * Whether the events consumer keeps up with the stream, judged from the
 * stream's own last sequence (read from its leader) against the last one the
 * fan-out was handed. Server heartbeats prove a consumer is open, not that it
 * moves (a consumer re-created on a rejoined node's stale copy of the stream
 * would heartbeat and deliver nothing; a CI run saw both notifiers' sockets
 * quiet for minutes after a quorum loss, the cluster whole again).
 *
 * Stalled: an event the stream held `stallMs` ago is still not delivered.
 * A consumer that is behind but moving (a burst) passes each mark in time
 * and is never called stalled.
 */
export class StreamLagWatch {
  /** The stream's last sequence when the consumer was first seen behind it. */
  private mark?: { sequence: number; atMs: number };
  private lastLag = 0;

  constructor(private readonly stallMs: number) {}

  /** Events the stream held beyond the delivered one at the last observation. */
  get lag(): number {
    return this.lastLag;
  }

  /** One reading of the stream; true when the consumer is stalled (the mark is then cleared). */
  observe(streamLast: number, delivered: number, nowMs: number): boolean {
    this.lastLag = Math.max(0, streamLast - delivered);
    if (delivered >= streamLast) {
      this.mark = undefined;
      return false;
    }
    if (!this.mark || delivered >= this.mark.sequence) {
      this.mark = { sequence: streamLast, atMs: nowMs };
      return false;
    }
    if (nowMs - this.mark.atMs < this.stallMs) {
      return false;
    }
    this.mark = undefined;
    return true;
  }

  /** A consumer started afresh starts unjudged. */
  reset(): void {
    this.mark = undefined;
  }
}
