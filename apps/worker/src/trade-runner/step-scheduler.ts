import type { MonotonicClock } from '../clock';

/** Longest run of trade steps before the worker goes back to its sockets. */
const SLICE_MS = 3;

/**
 * Runs trades' execution steps (re-quotes mostly). One book update can wake
 * hundreds of trades; run all in the socket callback, their re-quotes would
 * hold every fill that arrived meanwhile behind them. So a burst runs at once
 * only for a slice of a few milliseconds; the rest waits until the sockets
 * have been read again (a fill there has its hedge sent, synchronously, in
 * between) and then runs in further slices. Each trade is queued once, in
 * the order it was woken.
 */
export class StepScheduler {
  private readonly queue = new Set<() => void>();
  private drainScheduled = false;
  /** Start of the slice of the current I/O turn, or null when no step ran in it yet. */
  private sliceStart: number | null = null;

  constructor(private readonly clock: MonotonicClock) {}

  schedule(step: () => void): void {
    if (this.queue.size === 0 && this.inSlice()) {
      step();
      return;
    }
    this.queue.add(step);
    this.scheduleDrain();
  }

  get queued(): number {
    return this.queue.size;
  }

  /** True while the current I/O turn's slice has time left (and opens one if none is open). */
  private inSlice(): boolean {
    const now = this.clock.now();
    if (this.sliceStart === null) {
      this.sliceStart = now;
      setImmediate(() => (this.sliceStart = null));
    }
    return now - this.sliceStart < SLICE_MS;
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.drainScheduled = false;
    const until = this.clock.now() + SLICE_MS;
    for (const step of this.queue) {
      this.queue.delete(step);
      step();
      if (this.clock.now() >= until) break;
    }
    if (this.queue.size > 0) this.scheduleDrain();
  }
}
