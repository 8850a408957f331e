/**
 * A bounded record of latencies in milliseconds (a ring of the most recent
 * samples), for benchmarks and the worker's periodic stats line. Recording is
 * one array write: cheap enough for the hedge path.
 */
export class LatencyRecorder {
  private readonly samples: Float64Array;
  private next = 0;
  private filled = 0;
  private total = 0;

  constructor(capacity = 100_000) {
    this.samples = new Float64Array(capacity);
  }

  record(ms: number): void {
    this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.samples.length;
    this.filled = Math.min(this.filled + 1, this.samples.length);
    this.total += 1;
  }

  /** Samples recorded since start (including those the ring has dropped). */
  get count(): number {
    return this.total;
  }

  /** p in [0, 100] over the retained samples; NaN when empty. */
  percentile(p: number): number {
    if (this.filled === 0) {
      return Number.NaN;
    }
    // A typed array sorts by value natively: no boxed numbers, no comparator calls (the hedge
    // path asks for a venue's p90 on every IOC, VenueAnswerTimes).
    const sorted = this.samples.slice(0, this.filled).sort();
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[rank];
  }

  summary(): { count: number; p50: number; p99: number; max: number } {
    return {
      count: this.total,
      p50: this.percentile(50),
      p99: this.percentile(99),
      max: this.percentile(100),
    };
  }

  reset(): void {
    this.next = 0;
    this.filled = 0;
    this.total = 0;
  }
}
