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

/**
 * Longest a queued step waits behind more urgent ones: past it, it runs
 * first. At 1,000 trades a move's at_risk steps can fill slice after slice,
 * and a follow-up (the placement after a cancel's answer) waited behind them
 * up to 45 ms.
 */
const MAX_WAIT_MS = 10;

/**
 * How urgent the step of a trade a book move woke is, asked only when the
 * step must wait for a later slice (`RequoteUrgency`).
 */
export type StepRank = () => RequoteUrgency;

/**
 * Runs trades' execution steps (re-quotes mostly). One book update can wake
 * hundreds of trades; run all in the socket callback, their re-quotes would
 * hold every fill that arrived meanwhile behind them. So steps run at once
 * only within a slice of a few milliseconds per I/O turn; the rest waits
 * until the sockets have been read again (a fill there has its hedge sent,
 * synchronously, in between) and then runs in further slices. Each trade is
 * queued once.
 *
 * A market-data update's fan-out (`burst`) gets a slice of its own, and its
 * steps go ahead of older queued ones: they are the re-quotes the move made
 * urgent, while the queue holds follow-ups (answers, order updates, timers)
 * that can wait one turn. The steps its slice holds run in wake order,
 * unranked: ranking each would make every trade of the burst wait for the
 * ranking of all woken before it. A step the slice cannot hold is ranked as
 * it is queued, and the queue drains most urgent first: the trades whose
 * resting order the move made wrong (`at_risk`), then those off the touch,
 * then the rest and the follow-ups in the order they came. A queued step
 * woken again by a later move moves up when that move made it more urgent.
 * No step waits behind more urgent ones for longer than MAX_WAIT_MS: the
 * oldest step past it runs first, whatever its rank.
 * Its sends go through `writes`, so one account's re-quotes that follow
 * each other leave in one write.
 */
export class StepScheduler {
  /** A queue per urgency, most urgent first (REQUOTE_URGENCIES' order); follow-ups are `routine`. */
  private readonly queues: Record<RequoteUrgency, Set<() => void>> = {
    at_risk: new Set(),
    off_touch: new Set(),
    routine: new Set(),
  };
  /** When each queued step was queued (moving up keeps its time). */
  private readonly queuedAt = new Map<() => void, number>();
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
   * Runs `step` now if its turn allows, else queues it: by `rank` when a
   * book move woke it, as a follow-up (`routine`) otherwise. A step already
   * queued stays queued, moved up when `rank` says it is more urgent now.
   */
  schedule(step: () => void, rank?: StepRank): void {
    const queuedAs = this.queued === 0 ? null : this.queuedAs(step);
    if (queuedAs !== null) {
      if (rank !== undefined && queuedAs !== 'at_risk') {
        this.moveUp(step, queuedAs, rank());
      }
      return;
    }
    if ((this.bursting || this.queued === 0) && this.inSlice()) {
      step();
      if (this.bursting) {
        this.writes.stepEnded();
      }
      return;
    }
    this.enqueue(step, rank === undefined ? 'routine' : rank());
  }

  /**
   * Queues `step` as a follow-up even when the turn's slice has time left:
   * it runs once every socket read in this I/O turn has been served. A maker
   * fill's step waits so: one turn can read the fills of many trades (a
   * taker that swept the book), and each of them has its hedge sent before
   * any of their re-quotes. A step already queued stays as it is.
   */
  scheduleAfterReads(step: () => void): void {
    if (this.queued === 0 || this.queuedAs(step) === null) {
      this.enqueue(step, 'routine');
    }
  }

  private enqueue(step: () => void, urgency: RequoteUrgency): void {
    this.queues[urgency].add(step);
    this.queuedAt.set(step, this.clock.now());
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

  /** Steps waiting for a later slice. */
  get queued(): number {
    const { at_risk, off_touch, routine } = this.queues;
    return at_risk.size + off_touch.size + routine.size;
  }

  private queuedAs(step: () => void): RequoteUrgency | null {
    for (const urgency of REQUOTE_URGENCIES) {
      if (this.queues[urgency].has(step)) {
        return urgency;
      }
    }
    return null;
  }

  private moveUp(step: () => void, queuedAs: RequoteUrgency, urgency: RequoteUrgency): void {
    if (moreUrgent(urgency, queuedAs) !== queuedAs) {
      this.queues[queuedAs].delete(step);
      this.queues[urgency].add(step);
    }
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
    this.drainUntil(until);
    if (this.queued > 0) {
      this.scheduleDrain();
    }
  }

  private drainUntil(until: number): void {
    for (let step = this.next(); step !== undefined; step = this.next()) {
      this.queuedAt.delete(step);
      step();
      if (this.clock.now() >= until) {
        return;
      }
    }
  }

  /** Takes the step to run next: from the queue of an overdue step, else the most urgent. */
  private next(): (() => void) | undefined {
    const queue = this.overdueQueue() ?? this.mostUrgentQueue();
    const step = queue === undefined ? undefined : firstOf(queue);
    if (step !== undefined) {
      queue?.delete(step);
    }
    return step;
  }

  /**
   * The queue whose first step has waited longest, if that is MAX_WAIT_MS or
   * more. A queue's first step is its oldest, but for one moved up into it,
   * which is then more urgent anyway.
   */
  private overdueQueue(): Set<() => void> | undefined {
    let overdue: Set<() => void> | undefined;
    let oldestAt = this.clock.now() - MAX_WAIT_MS;
    for (const urgency of REQUOTE_URGENCIES) {
      const queue = this.queues[urgency];
      const first = firstOf(queue);
      const at = first === undefined ? undefined : this.queuedAt.get(first);
      // On a tie the more urgent queue, met first, keeps it.
      if (at !== undefined && (overdue === undefined ? at <= oldestAt : at < oldestAt)) {
        overdue = queue;
        oldestAt = at;
      }
    }
    return overdue;
  }

  private mostUrgentQueue(): Set<() => void> | undefined {
    for (const urgency of REQUOTE_URGENCIES) {
      if (this.queues[urgency].size > 0) {
        return this.queues[urgency];
      }
    }
    return undefined;
  }
}

/** A set's first member in insertion order. */
function firstOf<T>(set: Set<T>): T | undefined {
  for (const member of set) {
    return member;
  }
  return undefined;
}
