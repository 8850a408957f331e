/** Forgotten admissions are dropped from the arrays once there are this many and they are most. */
const COMPACT_AFTER = 1024;

/**
 * One key of a pool (an IP or an account): the weight it was admitted, each
 * admission with its time, oldest first, so the weight inside any window
 * ending now is known exactly; and its totals for the control read-out.
 */
export class WindowCount {
  private readonly times: number[] = [];
  private readonly weights: number[] = [];
  private head = 0;
  maxWindowWeight = 0;
  admittedWeight = 0;
  refused = 0;
  /** Admitted weight by request kind, and refusals by kind (what spent a key's budget). */
  readonly admittedByKind = new Map<string, number>();
  readonly refusedByKind = new Map<string, number>();

  /** The weight admitted in the window ending now. */
  weightIn(nowMs: number, windowMs: number): number {
    let sum = 0;
    for (
      let i = this.times.length - 1;
      i >= this.head && this.times[i] > nowMs - windowMs;
      i -= 1
    ) {
      sum += this.weights[i];
    }
    return sum;
  }

  admit(weight: number, nowMs: number, windowMs: number, kind = 'other'): void {
    this.times.push(nowMs);
    this.weights.push(weight);
    this.admittedWeight += weight;
    this.admittedByKind.set(kind, (this.admittedByKind.get(kind) ?? 0) + weight);
    this.maxWindowWeight = Math.max(this.maxWindowWeight, this.weightIn(nowMs, windowMs));
  }

  /** Counts a refused request of `kind`. */
  refuse(kind = 'other'): void {
    this.refused += 1;
    this.refusedByKind.set(kind, (this.refusedByKind.get(kind) ?? 0) + 1);
  }

  /** How long until `weight` more fits: the oldest admissions in the window must leave it first. */
  retryAfterMs(weight: number, capacity: number, nowMs: number, windowMs: number): number {
    if (weight > capacity) {
      return windowMs;
    }
    let excess = this.weightIn(nowMs, windowMs) + weight - capacity;
    for (let i = this.head; i < this.times.length; i += 1) {
      if (this.times[i] <= nowMs - windowMs) {
        continue;
      }
      excess -= this.weights[i];
      if (excess <= 0) {
        return Math.max(1, this.times[i] + windowMs - nowMs);
      }
    }
    return windowMs;
  }

  /** Forgets admissions older than `keepMs` (the longest window the pool may count again). */
  prune(nowMs: number, keepMs: number): void {
    while (this.head < this.times.length && this.times[this.head] <= nowMs - keepMs) {
      this.head += 1;
    }
    if (this.head > COMPACT_AFTER && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.weights.splice(0, this.head);
      this.head = 0;
    }
  }
}
