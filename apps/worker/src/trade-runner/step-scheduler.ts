import type { MonotonicClock } from '../clock';

/** Where a burst's sends may share writes (FrameCoalescer): told where the burst and its steps end. */
export interface BurstWrites {
  during(run: () => void): void;
  stepEnded(): void;
}

const WRITE_AT_ONCE: BurstWrites = { during: (run) => run(), stepEnded: () => undefined };

/** Longest run of trade steps before the worker goes back to its sockets. */
const SLICE_MS = 3;
/**
 * Longest run of the steps one market-data update wakes (its re-quotes):
 * the re-quote target, so a book move is answered in one go.
 */
const BURST_SLICE_MS = 5;

/**
 * Runs trades' execution steps (re-quotes mostly). One book update can wake
 * hundreds of trades; run all in the socket callback, their re-quotes would
 * hold every fill that arrived meanwhile behind them. So steps run at once
 * only within a slice of a few milliseconds per I/O turn; the rest waits
 * until the sockets have been read again (a fill there has its hedge sent,
 * synchronously, in between) and then runs in further slices. Each trade is
 * queued once, in the order it was woken.
 *
 * A market-data update's fan-out (`burst`) gets a slice of its own, and its
 * steps go ahead of older queued ones: they are the re-quotes the move made
 * urgent, while the queue holds follow-ups (answers, order updates, timers)
 * that can wait one turn. Its sends go through `writes`, so one account's
 * re-quotes that follow each other leave in one write.
 */
export class StepScheduler {
  private readonly queue = new Set<() => void>();
  private drainScheduled = false;
  /** Start of the slice of the current I/O turn, or null when no step ran in it yet. */
  private sliceStart: number | null = null;
  private sliceMs = SLICE_MS;
  private bursting = false;

  constructor(
    private readonly clock: MonotonicClock,
    private readonly writes: BurstWrites = WRITE_AT_ONCE,
  ) {}

  schedule(step: () => void): void {
    if ((this.bursting || this.queue.size === 0) && this.inSlice()) {
      step();
      if (this.bursting) {
        this.writes.stepEnded();
      }
      return;
    }
    this.queue.add(step);
    this.scheduleDrain();
  }

  /**
   * Runs the fan-out of one market-data update with a slice of its own for
   * the steps it wakes. The time it took counts against the turn's slice.
   */
  burst(fanOut: () => void): void {
    if (this.bursting) {
      return fanOut();
    }
    const start = this.clock.now();
    if (this.sliceStart === null) {
      this.scheduleSliceEnd();
    }
    this.sliceStart = start;
    this.sliceMs = BURST_SLICE_MS;
    this.bursting = true;
    try {
      this.writes.during(fanOut);
    } finally {
      this.bursting = false;
      this.sliceMs = SLICE_MS;
    }
  }

  get queued(): number {
    return this.queue.size;
  }

  /** True while the current I/O turn's slice has time left (and opens one if none is open). */
  private inSlice(): boolean {
    const now = this.clock.now();
    if (this.sliceStart === null) {
      this.sliceStart = now;
      this.scheduleSliceEnd();
    }
    return now - this.sliceStart < this.sliceMs;
  }

  private scheduleSliceEnd(): void {
    setImmediate(() => (this.sliceStart = null));
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) {
      return;
    }
    this.drainScheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.drainScheduled = false;
    const until = this.clock.now() + SLICE_MS;
    for (const step of this.queue) {
      this.queue.delete(step);
      step();
      if (this.clock.now() >= until) {
        break;
      }
    }
    if (this.queue.size > 0) {
      this.scheduleDrain();
    }
  }
}
