import type Big from 'big.js';
import type { TradeControl } from '@sts/contracts';
import {
  formatDecimal,
  isTerminalTradeStatus,
  moreUrgent,
  tradeTag,
  type RequoteUrgency,
  type TradeStatus,
} from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueFill } from '@sts/venues';
import { logEntry, type LogEntry } from '@sts/contracts';
import { LeaseLostError } from '../execution-log/trade-journal';
import { untilTrusted, type LeaseTrust } from './lease-trust';
import type { Lease } from '../lease/lease.repository';
import type { AmendableTerms, LoadedTrade, TradeRecord } from '../trades/trade-record';
import { ExecutionLoop } from './execution-loop';
import { type FastMoveWatch } from './fast-move-watch';
import { MakerFills } from './maker-fills';
import type { OpenTrade } from './open-trade';
import type { Halt } from './runner-services';
import type { StepRank } from './step-scheduler';
import { type TradeBudget } from './trade-budget';
import { TradeFeed } from './trade-feed';
import * as phases from './trade-phase';
import type { Ending, TradePhase } from './trade-phase';
import type { TradeServices } from './trade-services';
import type { LateOrderListener } from './trade-feed';
import type { RequoteAfterMove, StatusRequest, TradeView, TradeWrites } from './trade-view';

/** Everything a trade's state is built from, once its row is loaded. */
export interface TradeStateInit {
  services: TradeServices;
  lease: Lease;
  trust: LeaseTrust;
  log: Logger;
  loaded: LoadedTrade;
  journal: TradeWrites;
  budget: TradeBudget;
  guard: FastMoveWatch;
  halt: Halt | null;
  /** The trade reached a terminal status here. */
  onEnded(): void;
}

/**
 * One trade while this worker holds its lease, from the moment its row is
 * loaded. Its lifecycle is one value, `phase` (see TradePhase), and it and
 * every other field change only through the methods below: the loop, feed
 * and take-down see the trade as a TradeView, which has nothing to assign.
 * Its status changes only through changeStatus(). Maker fills take the hot
 * path (`onMakerFill`): the hedge goes out first.
 */
export class TradeState implements TradeView {
  readonly tradeId: string;
  readonly tradeTag: string;
  readonly record: TradeRecord;
  readonly journal: TradeWrites;
  readonly budget: TradeBudget;
  readonly guard: FastMoveWatch;
  readonly loop: ExecutionLoop;
  private readonly feed: TradeFeed;
  readonly abort = new AbortController();
  readonly fills = new MakerFills();
  readonly log: Logger;
  private currentPhase: TradePhase;
  private operatorHalt: Halt | null;
  private haltedVenue: Halt | null = null;
  private chunkInLog = false;
  /** When the book moved and no request has followed yet (for the re-quote latency figure). */
  private moveAt: number | null = null;
  /** The most urgent rank a move's waiting step got since the last request; null: none waited. */
  private moveRank: RequoteUrgency | null = null;
  /** A re-quote is waiting for the trade's request budget (its latency is the budget's, not the worker's). */
  private heldByBudget = false;
  private currentStatus: TradeStatus;
  private currentTerms: AmendableTerms;
  private opened: OpenTrade | null = null;
  private readonly services: TradeServices;
  private readonly lease: Lease;
  private readonly trust: LeaseTrust;

  constructor(init: TradeStateInit) {
    this.services = init.services;
    this.lease = init.lease;
    this.trust = init.trust;
    this.record = init.loaded.record;
    this.tradeId = this.record.id;
    this.tradeTag = tradeTag(this.tradeId);
    this.currentStatus = init.loaded.status;
    this.currentTerms = init.loaded.terms;
    this.currentPhase = {
      kind: 'starting',
      ending: init.loaded.cancelRequested ? { kind: 'canceled' } : null,
    };
    this.journal = init.journal;
    this.budget = init.budget;
    this.guard = init.guard;
    this.operatorHalt = init.halt;
    this.log = init.log;
    this.loop = new ExecutionLoop(this, init.services, init.onEnded);
    this.feed = new TradeFeed(this, this.loop, init.services);
  }

  get phase(): TradePhase {
    return this.currentPhase;
  }

  /** The ending asked for (or under way), if any: what the loop ends the trade with. */
  get ending(): Ending | null {
    return this.currentPhase.ending;
  }

  /** The committed status: it moves only when changeStatus's write has committed. */
  get status(): TradeStatus {
    return this.currentStatus;
  }

  get terms(): AmendableTerms {
    return this.currentTerms;
  }

  /** The legs, hedger and maker orders, once the venues are open. */
  get open(): OpenTrade | null {
    return this.opened;
  }

  /** An operator's halt (maintenance, kill switch) in force on the trade's venues. */
  get halt(): Halt | null {
    return this.operatorHalt;
  }

  /** The maker or hedge venue refused a request as halted: paused until it answers again. */
  get venueHalt(): Halt | null {
    return this.haltedVenue;
  }

  /** What keeps the trade paused, if anything: an operator's halt first. */
  get haltInForce(): Halt | null {
    return this.operatorHalt ?? this.haltedVenue;
  }

  get chunkStarted(): boolean {
    return this.chunkInLog;
  }

  /**
   * The one way a trade's status changes: the domain's transition table is
   * checked, the change is written with its log entries and lifecycle event
   * (TradeJournal, one transaction), and only then is it the trade's status.
   * Whatever ends the trade, its fast-move guard's figures go with the end (an
   * `off` guard's too: its mode and zeros).
   */
  async changeStatus(to: TradeStatus, request: StatusRequest = {}): Promise<void> {
    const ending = isTerminalTradeStatus(to)
      ? { fastMoveGuardStats: this.guard.finish(this.now()) }
      : {};
    await this.journal.changeStatus({ from: this.currentStatus, to, ...ending, ...request });
    this.currentStatus = to;
  }

  /** Something may need doing: the loop steps (from the worker's scheduler; a book move passes its rank). */
  wake(rank?: StepRank): void {
    this.loop.wake(rank);
  }

  /** A maker fill wakes the loop: its step waits for the turn's other reads (their fills' hedges). */
  wakeAfterReads(): void {
    this.loop.wakeAfterReads();
  }

  now(): number {
    return this.services.clock.now();
  }

  /** False once the lease is (or may be) someone else's: then no venue is touched for this trade. */
  mayTouchVenue(): boolean {
    return this.currentPhase.kind !== 'closed' && this.now() < this.trust.validUntilMs;
  }

  /** The lease is unproven lately (lease-trust.ts): no maker order may rest, only hedges go. */
  leaseInDoubt(): boolean {
    return this.now() >= this.trust.quoteUntilMs;
  }

  /** Waits out a lapse of the lease's trust (lease-trust.ts). */
  untilTrusted(): Promise<boolean> {
    return untilTrusted({
      mayTouchVenue: () => this.mayTouchVenue(),
      isClosed: () => this.currentPhase.kind === 'closed',
    });
  }

  get filledSize(): Big {
    return this.fills.filled(this.terms.sizeType);
  }

  /** Appends to the log without waiting; a failure is logged (the journal retries transient ones). */
  record$(entries: LogEntry[], filledSize?: string): void {
    this.journal.append(entries, filledSize).catch((error: unknown) => {
      if (!(error instanceof LeaseLostError)) {
        this.log.error({ err: error }, 'execution log write lost');
      }
    });
  }

  /** The fencing epoch of this worker's lease. */
  get epoch(): string {
    return this.lease.epoch;
  }

  /** Opens both venues and builds the parts that trade on them (once). */
  async openLegs(): Promise<OpenTrade> {
    this.opened ??= await this.feed.open();
    return this.opened;
  }

  /** Starts routing this trade's own fills and order updates to it (and to a takeover's `lateOrders`). */
  listen(lateOrders?: LateOrderListener): void {
    this.feed.listen(lateOrders);
  }

  /** Started (validated, recovered or resumed): its loop takes over, unless it closed meanwhile. */
  startRunning(): void {
    if (this.currentPhase.kind !== 'starting') {
      return;
    }
    this.currentPhase = phases.startRunning(this.currentPhase);
    this.wake();
  }

  /** A cancel (control message, or the row's flag seen on a lease renewal): the loop ends the trade. */
  requestCancel(): void {
    if (this.askEnding({ kind: 'canceled' })) {
      this.wake();
    }
  }

  /** The quote cycle found nothing left to fill: the next step completes the trade. */
  reachTarget(): void {
    this.askEnding({ kind: 'completed' });
  }

  /** Something no retry cures: the trade fails, with the first such reason. */
  fail(reason: string): void {
    if (this.currentPhase.ending?.kind !== 'failed') {
      this.log.error({ reason }, 'trade failing');
    }
    this.askEnding({ kind: 'failed', reason });
    this.wake();
  }

  /** Whether the ending asked for changed the trade's (see TradePhase's askEnding). */
  private askEnding(ending: Ending): boolean {
    const before = this.currentPhase;
    this.currentPhase = phases.askEnding(before, ending);
    return this.currentPhase !== before;
  }

  /** The loop ends the trade with the ending asked for: nothing else is started for it. */
  beginEnding(): void {
    this.currentPhase = phases.beginEnding(this.currentPhase);
  }

  /** Graceful shutdown: the loop takes no more steps; it goes quiet for the next worker. */
  handOver(): void {
    this.currentPhase = phases.handOver(this.currentPhase);
  }

  /** Nothing more is done for the trade here: its venues, budget and journal are let go. */
  close(): void {
    this.currentPhase = phases.close(this.currentPhase);
    this.loop.stop();
    this.abort.abort(new Error('trade closed on this worker'));
    this.opened?.legs.close();
    this.budget.close('trade closed on this worker');
    this.journal.close();
  }

  /** An operator's halt came or went on the trade's venues: the loop pauses or resumes. */
  operatorHalted(halt: Halt | null): void {
    this.operatorHalt = halt;
    this.wake();
  }

  /** A venue refused a request as halted: the trade pauses until it answers again (decisions 3). */
  venueHalted(exchange: string): void {
    if (this.haltedVenue?.exchange !== exchange) {
      this.log.warn({ exchange }, 'venue halted; pausing the trade');
    }
    this.haltedVenue = { reason: 'venue_halted', exchange };
    this.wake();
  }

  /** The halted venue answers again: the trade may resume. */
  venueAnswers(): void {
    this.haltedVenue = null;
  }

  /** chunk_started is (or, read back from the log, was) written: an end logs chunk_completed. */
  noteChunkStarted(started = true): void {
    this.chunkInLog = started;
  }

  /** A book move that may call for a re-quote: the first since the last request times it. */
  noteBookMove(receivedAtMs: number): void {
    this.moveAt ??= receivedAtMs;
  }

  /** The step a move asked for had to wait, this urgently: the re-quote's turn is the most urgent such. */
  noteMoveRanked(urgency: RequoteUrgency): void {
    this.moveRank = this.moveRank === null ? urgency : moreUrgent(urgency, this.moveRank);
  }

  /** A re-quote waits for the request budget: its latency is the budget's. */
  holdQuoteForBudget(): void {
    this.heldByBudget = true;
  }

  /** The quote rests as wanted (or none is wanted): no re-quote is pending. */
  quoteSettled(): void {
    this.moveAt = null;
    this.moveRank = null;
    this.heldByBudget = false;
  }

  /** A maker request went out: the book move it answers, if one is pending, and whether it waited. */
  requoteSent(waitedForBudget: boolean): RequoteAfterMove | null {
    const heldByBudget = waitedForBudget || this.heldByBudget;
    this.heldByBudget = false;
    const movedAt = this.moveAt;
    const turn = this.moveRank ?? 'in_slice';
    this.moveAt = null;
    this.moveRank = null;
    return movedAt === null ? null : { movedAt, heldByBudget, turn };
  }

  /** A maker fill of this trade (stream, read-back, reconciliation): the hot path (TradeFeed). */
  onMakerFill(fill: VenueFill): void {
    this.feed.onMakerFill(fill);
  }

  /** chunk_completed for a trade that ends after it started; `unwound`: what its unwind took back. */
  chunkCompleted(reason: 'target_reached' | 'canceled' | 'failed', unwound: Big): LogEntry[] {
    const hedger = this.open?.hedger;
    if (!this.chunkInLog || !hedger) {
      return [];
    }
    return [
      logEntry('chunk_completed', {
        filled_size: formatDecimal(this.filledSize),
        reason,
        residual_unhedged: formatDecimal(hedger.residual()),
        residual_unwound: formatDecimal(unwound),
      }),
    ];
  }

  /**
   * Takes the terms stored on the row if they are newer than the ones held
   * (version `atLeast` or any newer when absent): an amendment stored while
   * the trade was validating or recovering, when no control message could
   * reach it (decisions 4), is in force before the first quote.
   */
  async refreshTerms(atLeast = 0): Promise<void> {
    if (atLeast !== 0 && atLeast <= this.terms.amendmentVersion) {
      return;
    }
    const next = await this.services.reader.amendableTerms(this.tradeId);
    if (next.amendmentVersion <= this.terms.amendmentVersion) {
      return;
    }
    const sizeTypeChanged = next.sizeType !== this.terms.sizeType;
    const { cancelRequested: _cancel, ...terms } = next;
    this.currentTerms = terms;
    this.fills.amended();
    if (sizeTypeChanged && this.currentPhase.kind !== 'closed') {
      this.record$([], formatDecimal(this.filledSize));
    }
    this.log.info(
      { amendment_version: next.amendmentVersion, target_size: formatDecimal(next.targetSize) },
      'amendment applied',
    );
    this.wake();
  }

  onControl(control: TradeControl): Promise<boolean> | boolean {
    const { kind } = this.currentPhase;
    if (kind === 'closed' || kind === 'ending') {
      return control.kind === 'cancel';
    }
    if (control.kind === 'cancel') {
      this.requestCancel();
      return true;
    }
    return this.refreshTerms(control.amendment_version).then(() => true);
  }
}
