import { LeaseLostError } from '../execution-log/trade-journal';
import type { LoopControl } from './loop-control';
import { MakerTakedown } from './maker-takedown';
import { quoteCycle } from './quote-cycle';
import { hedgeMoveMatters, makerTouchMatters, type KeptQuote } from './quoting/kept-quote';
import type { MakerOutcome } from './quoting/maker-orders';
import type { StepRank, StepScheduler } from './step-scheduler';
import { writeEnding } from './trade-ending';
import type { TradeView } from './trade-view';

/** Maker rejections that no retry cures: the trade fails. (A halted venue pauses it instead.) */
const FATAL_REJECTIONS = new Set(['insufficient_margin', 'unknown_market']);
const MAX_CONSECUTIVE_REJECTIONS = 5;

/** What the loop takes from the worker. */
export interface LoopServices {
  /** Runs trades' steps in slices after pending I/O, so fills are never queued behind re-quotes. */
  scheduler: Pick<StepScheduler, 'schedule' | 'scheduleAfterReads'>;
}

/**
 * The running trade's loop: one step at a time, woken by book moves, fills,
 * control messages and timers. A step does the single most urgent thing:
 * fail, cancel, complete, pause, resume, or one quote cycle (place, keep or
 * take down the maker order). Venue requests are made one at a time and paid
 * from the maker bucket; everything that arrives meanwhile is seen by the
 * next step.
 */
export class ExecutionLoop implements LoopControl {
  private stepping?: Promise<void>;
  private queued = false;
  private again = false;
  /** How urgent the move that asked for another step made it (asked when that step must wait). */
  private againRank: StepRank | undefined;
  private wakeTimer?: NodeJS.Timeout;
  private wakeAtMs = Infinity;
  /** The wait for the maker account's next batch (`wakeWhen`), while one is asked. */
  private batchWait?: AbortController;
  private consecutiveRejections = 0;
  /** The order the last quote cycle kept, when book moves that cannot change it can be told. */
  private kept: KeptQuote | null = null;
  private readonly takedown: MakerTakedown;

  constructor(
    private readonly trade: TradeView,
    private readonly services: LoopServices,
    private readonly onEnded: () => void,
  ) {
    this.takedown = new MakerTakedown(trade, this);
  }

  /**
   * Something may need doing: the step runs from the worker's scheduler
   * (after pending I/O). A book move passes its `rank`: the scheduler asks
   * it only if the step must wait, and a waiting step moves up by it.
   */
  wake(rank?: StepRank): void {
    if (this.needsStep(rank)) {
      this.services.scheduler.schedule(this.runQueued, rank);
    }
  }

  /**
   * A maker fill: the step waits for the rest of the I/O turn, so the fill
   * of another trade read in the same turn has its hedge sent first
   * (StepScheduler.scheduleAfterReads).
   */
  wakeAfterReads(): void {
    if (this.needsStep(undefined)) {
      this.services.scheduler.scheduleAfterReads(this.runQueued);
    }
  }

  /**
   * Whether a wake must queue a step (then counted as queued): not when the
   * trade is not running, nor when the step running or queued already covers
   * it (a running one steps again; a rank moves a queued one up).
   */
  private needsStep(rank: StepRank | undefined): boolean {
    if (this.trade.phase.kind !== 'running') {
      return false;
    }
    if (this.stepping) {
      this.again = true;
      this.againRank = rank ?? this.againRank;
      return false;
    }
    if (this.queued && rank === undefined) {
      return false;
    }
    this.queued = true;
    return true;
  }

  private readonly runQueued = (): void => {
    this.queued = false;
    if (this.trade.phase.kind !== 'running') {
      return;
    }
    if (this.stepping) {
      this.again = true;
      return;
    }
    this.stepping = this.loop().finally(() => {
      this.stepping = undefined;
      if (this.again) {
        const rank = this.againRank;
        this.again = false;
        this.againRank = undefined;
        this.wake(rank);
      }
    });
  };

  /** Whether a maker touch move could change the quote (see KeptQuote). */
  makerTouchMatters(): boolean {
    const kept = this.idleKept();
    return !kept || makerTouchMatters(kept, this.trade);
  }

  /** Whether an H move could change the quote (see KeptQuote). */
  hedgeMoveMatters(nowMs: number): boolean {
    const kept = this.idleKept();
    return !kept || hedgeMoveMatters(kept, this.trade, nowMs);
  }

  /** The kept quote, unless a step is running or queued: that one decides afresh. */
  private idleKept(): KeptQuote | null {
    return this.stepping || this.queued ? null : this.kept;
  }

  /** Resolves when no step is running. */
  async settled(): Promise<void> {
    while (this.stepping) {
      await this.stepping;
    }
  }

  stop(): void {
    if (this.wakeTimer) {
      clearTimeout(this.wakeTimer);
    }
    this.wakeTimer = undefined;
    this.wakeAtMs = Infinity;
    this.batchWait?.abort();
    this.batchWait = undefined;
  }

  wakeWhen(opened: (signal: AbortSignal) => Promise<void> | null): void {
    this.batchWait?.abort();
    const wait = new AbortController();
    const waiting = opened(wait.signal);
    this.batchWait = waiting ? wait : undefined;
    waiting?.then(
      () => {
        if (this.batchWait === wait) {
          this.batchWait = undefined;
          this.wake();
        }
      },
      () => undefined,
    );
  }

  /** Wakes the loop in `ms` (the earliest of the requested times wins). */
  wakeIn(ms: number): void {
    const at = Date.now() + ms;
    if (at >= this.wakeAtMs) {
      return;
    }
    if (this.wakeTimer) {
      clearTimeout(this.wakeTimer);
    }
    this.wakeAtMs = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wakeAtMs = Infinity;
      this.wake();
    }, ms);
  }

  stepAgain(): void {
    this.again = true;
  }

  keep(kept: KeptQuote | null): void {
    this.kept = kept;
  }

  /**
   * One step. When it asks for another (a re-quote after a cancel), that one
   * goes through the scheduler too, so a wave of venue answers cannot start a
   * wave of requests that holds the sockets. A step that throws is retried
   * while the trade runs; once it is finishing or closed the error is logged
   * (a lost lease excepted: another worker owns the trade).
   */
  private async loop(): Promise<void> {
    this.again = false;
    this.againRank = undefined;
    this.kept = null;
    try {
      await this.step();
    } catch (error) {
      const { phase, log } = this.trade;
      if (phase.kind === 'running') {
        log.error({ err: error }, 'execution step failed; retrying');
        this.wakeIn(500);
      } else if (!(error instanceof LeaseLostError)) {
        log.error(
          { err: error, phase: phase.kind },
          'execution step failed while the trade was stopping',
        );
      }
    }
  }

  private async step(): Promise<void> {
    const trade = this.trade;
    const { phase } = trade;
    if (phase.kind !== 'running') {
      return; // handing over: the hand-over takes the maker side down
    }
    if (phase.ending) {
      return this.finish();
    }
    if (!trade.mayTouchVenue()) {
      return; // the lease is not trusted: the renewal that trusts it again wakes the loop
    }
    if (trade.leaseInDoubt()) {
      // Not proven lately: nothing rests that could fill once this worker stops sending.
      return this.keepQuiet();
    }
    const halt = trade.haltInForce;
    if (trade.status === 'active' && halt) {
      return this.pause();
    }
    if (trade.status === 'paused' && !halt) {
      return this.resume();
    }
    const open = trade.open;
    if (trade.status !== 'active' || !open) {
      return this.keepQuiet();
    }
    return quoteCycle(trade, open, this, this.takedown);
  }

  handle(outcome: MakerOutcome): void {
    const trade = this.trade;
    switch (outcome.kind) {
      case 'done':
        this.consecutiveRejections = 0;
        return;
      case 'halted':
        // The maker venue refused an order as halted: the trade pauses (decisions 3), it does not fail.
        trade.venueHalted(trade.record.makerExchange);
        this.again = true;
        return;
      case 'book_moved':
        // The next book update re-quotes; the timer covers a book that went quiet.
        this.wakeIn(250);
        return;
      case 'wait':
        this.wakeIn(outcome.ms);
        return;
      case 'rejected':
        return this.rejected(outcome.reason);
      case 'fatal':
        trade.fail(outcome.reason);
        return;
    }
  }

  private rejected(reason: string): void {
    const trade = this.trade;
    this.consecutiveRejections += 1;
    trade.log.warn({ reason, count: this.consecutiveRejections }, 'maker order rejected');
    if (FATAL_REJECTIONS.has(reason) || this.consecutiveRejections >= MAX_CONSECUTIVE_REJECTIONS) {
      trade.fail(`maker order rejected by ${trade.record.makerExchange}: ${reason}`);
    } else {
      this.wakeIn(200 * this.consecutiveRejections);
    }
  }

  /** Not quoting (paused, or between statuses): make sure no maker order rests. */
  private async keepQuiet(): Promise<void> {
    const trade = this.trade;
    if (trade.venueHalt && !trade.halt) {
      return this.takedown.probeHaltedVenue();
    }
    if (trade.open?.makerOrders.ledger.current) {
      await this.takedown.pullMakerOrders(false);
    }
  }

  private async pause(): Promise<void> {
    const trade = this.trade;
    if (!(await this.takedown.pullMakerOrders(false))) {
      return; // the lease is not trusted: paused by the step its renewal wakes, order down first
    }
    const halt = trade.haltInForce;
    // Only a trade that stopped meanwhile (ending, lease lost) is not paused; one handing over is.
    const { kind } = trade.phase;
    if ((kind !== 'running' && kind !== 'handing_over') || !halt) {
      return;
    }
    await trade.changeStatus('paused', {
      eventData: { reason: halt.reason, exchange: halt.exchange },
    });
    trade.log.info({ reason: halt.reason, exchange: halt.exchange }, 'trade paused');
  }

  private async resume(): Promise<void> {
    await this.trade.changeStatus('active', { eventData: {} });
    this.trade.log.info('trade resumed');
    this.again = true;
  }

  /**
   * Ends the trade here with the ending asked for: it goes quiet, its terminal
   * status is written (`failed` if a hedge failed meanwhile), then it closes.
   */
  private async finish(): Promise<void> {
    this.trade.beginEnding();
    await this.quiesce();
    await writeEnding(this.trade);
    this.onEnded();
  }

  /**
   * For a hand-over or an end: no maker order resting, no fill unread, no
   * hedge running, the log written. A lapse of the lease's trust is waited
   * out and the pass done again; only a lost lease leaves the rest to the
   * new owner.
   */
  async quiesce(): Promise<void> {
    const trade = this.trade;
    this.stop();
    for (;;) {
      const down = await this.takedown.pullMakerOrders();
      const read =
        !trade.ledger.chunkStarted || !trade.open || (await this.takedown.reconcileWithRetry());
      await trade.open?.hedger.idle();
      if ((down && read) || !(await trade.untilTrusted())) {
        break;
      }
    }
    await trade.journal.idle();
  }
}
