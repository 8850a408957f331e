import { moreUrgent, REQUOTE_URGENCIES, type RequoteUrgency } from '@sts/domain';
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

/** A queue per urgency, most urgent first (REQUOTE_URGENCIES' order). */
type Queues = Record<RequoteUrgency, Set<() => void>>;

const queues = (): Queues => ({ at_risk: new Set(), off_touch: new Set(), routine: new Set() });

/**
 * Runs trades' execution steps (re-quotes mostly). One book update can wake
 * hundreds of trades; run all in the socket callback, their re-quotes would
 * hold every fill that arrived meanwhile behind them. So steps run at once
 * only within a slice of a few milliseconds per I/O turn; the rest waits
 * until the sockets have been read again (a fill there has its hedge sent,
 * synchronously, in between) and then runs in further slices. Each trade is
 * queued once, in the order it was woken, and a queued trade woken again for
 * something more urgent moves up.
 *
 * A market-data update's fan-out (`burst`) gets a slice of its own, and its
 * steps go ahead of older queued ones: they are the re-quotes the move made
 * urgent, while the queue holds follow-ups (answers, order updates, timers)
 * that can wait one turn. Within a burst the trades whose resting order the
 * move made wrong go first (`RequoteUrgency`): an `at_risk` step runs as
 * soon as its trade is woken, the others once the fan-out has found every
 * `at_risk` one, `off_touch` before `routine`. Its sends go through
 * `writes`, so one account's re-quotes that follow each other leave in one
 * write.
 */
export class StepScheduler {
  private readonly queued = queues();
  /** The steps a burst's fan-out woke that wait for its end (never an `at_risk` one). */
  private readonly deferred = queues();
  private drainScheduled = false;
  /** Start of the slice of the current I/O turn, or null when no step ran in it yet. */
  private sliceStart: number | null = null;
  private sliceMs = SLICE_MS;
  private bursting = false;

  constructor(
    private readonly clock: MonotonicClock,
    private readonly writes: BurstWrites = WRITE_AT_ONCE,
  ) {}

  /**
   * Runs `step` now if its turn allows, else queues it by `urgency`; a step
   * already waiting is moved up when `urgency` is more urgent than its own.
   */
  schedule(step: () => void, urgency: RequoteUrgency = 'routine'): void {
    if (this.bursting) {
      return this.scheduleInBurst(step, urgency);
    }
    if (this.size === 0 && this.inSlice()) {
      step();
      return;
    }
    this.enqueue(this.queued, step, urgency);
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
    let fannedOut = false;
    try {
      this.writes.during(() => {
        fanOut();
        fannedOut = true;
        this.runDeferred(true);
      });
    } finally {
      if (!fannedOut) {
        this.runDeferred(false);
      }
      this.bursting = false;
      this.sliceMs = SLICE_MS;
    }
  }

  /** Steps waiting for a later slice. */
  get size(): number {
    const { at_risk, off_touch, routine } = this.queued;
    return at_risk.size + off_touch.size + routine.size;
  }

  private scheduleInBurst(step: () => void, urgency: RequoteUrgency): void {
    const queuedAs = this.dequeue(step);
    const now = queuedAs === null ? urgency : moreUrgent(urgency, queuedAs);
    if (now === 'at_risk' && this.inSlice()) {
      step();
      this.writes.stepEnded();
      return;
    }
    (now === 'at_risk' ? this.queued : this.deferred)[now].add(step);
    this.scheduleDrain();
  }

  /**
   * The steps the fan-out deferred, most urgent first, while the burst's
   * slice lasts; the rest queue (all of them when the fan-out threw).
   */
  private runDeferred(fannedOut: boolean): void {
    for (const urgency of REQUOTE_URGENCIES) {
      const steps = this.deferred[urgency];
      for (const step of steps) {
        steps.delete(step);
        if (fannedOut && this.inSlice()) {
          step();
          this.writes.stepEnded();
        } else {
          this.queued[urgency].add(step);
        }
      }
    }
  }

  private enqueue(target: Queues, step: () => void, urgency: RequoteUrgency): void {
    const queuedAs = this.dequeue(step);
    target[queuedAs === null ? urgency : moreUrgent(urgency, queuedAs)].add(step);
  }

  /** Takes `step` out of whichever queue holds it; its urgency there, or null. */
  private dequeue(step: () => void): RequoteUrgency | null {
    for (const urgency of REQUOTE_URGENCIES) {
      if (this.queued[urgency].delete(step) || this.deferred[urgency].delete(step)) {
        return urgency;
      }
    }
    return null;
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

  /** One slice of queued steps, most urgent first. */
  private drain(): void {
    this.drainScheduled = false;
    const until = this.clock.now() + SLICE_MS;
    for (const urgency of REQUOTE_URGENCIES) {
      const steps = this.queued[urgency];
      for (const step of steps) {
        steps.delete(step);
        step();
        if (this.clock.now() >= until) {
          return this.afterDrain();
        }
      }
    }
    this.afterDrain();
  }

  private afterDrain(): void {
    if (this.size > 0) {
      this.scheduleDrain();
    }
  }
}
