import type Big from 'big.js';
import type { TradeControl } from '@sts/contracts';
import { formatDecimal, isTerminalTradeStatus, tradeTag, type TradeStatus } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueFill } from '@sts/venues';
import { logEntry, type LogEntry } from '../execution-log/log-entries';
import {
  LeaseLostError,
  type StatusChange,
  type TradeJournal,
} from '../execution-log/trade-journal';
import type { Lease } from '../lease/lease.repository';
import type { AmendableTerms, LoadedTrade, TradeRecord } from '../trades/trade-record';
import { ExecutionLoop } from './execution-loop';
import { type FastMoveWatch } from './fast-move-watch';
import { MakerFills } from './maker-fills';
import type { OpenTrade } from './open-trade';
import { TradeFeed } from './trade-feed';
import type { VenueRegistry } from '@sts/domain';
import type { FrameCoalescer } from '@sts/venues';
import type { MonotonicClock } from '../clock';
import type { WorkerMetrics } from '../metrics/worker-metrics';
import type { VenueAnswerTimes } from '../venue-sessions/venue-answer-times';
import type { TradeReader } from '../trades/trade-record';
import type { Halt } from './runner-services';
import type { StepScheduler } from './step-scheduler';
import type { BookHandlers, LegBudgets, TradeLegs } from './trade-legs';
import { type TradeBudget } from './trade-budget';

export type Phase = 'starting' | 'running' | 'finishing' | 'closed';

/** What a trade takes from the worker: each part as narrow as the trade uses it. */
export interface TradeServices {
  clock: MonotonicClock;
  metrics: TradeMetrics;
  coalescer: Pick<FrameCoalescer, 'whenSent'>;
  /** How long each venue takes to answer: a hedge's bound for an unanswered IOC. */
  answerTimes: Pick<VenueAnswerTimes, 'expectedMs'>;
  reader: Pick<TradeReader, 'amendableTerms'>;
  venues: VenueRegistry;
  scheduler: Pick<StepScheduler, 'schedule'>;
  /** Opens the trade's two venues (accounts, markets, books): openTradeLegs on a worker. */
  openLegs(record: TradeRecord, books: BookHandlers, budget?: LegBudgets): Promise<TradeLegs>;
}

/** The worker metrics a trade records. */
export type TradeMetrics = Pick<
  WorkerMetrics,
  | 'recordEntries'
  | 'recordFillToHedgeSent'
  | 'recordHedgeEnded'
  | 'recordRequote'
  | 'recordRequoteHeld'
>;

/** The journal's part a trade writes through (TradeJournal on a worker). */
export type TradeWrites = Pick<TradeJournal, 'append' | 'changeStatus' | 'idle' | 'close'>;

/** Until when (monotonic ms) this worker trusts its lease: the runner moves it on each renewal. */
export interface LeaseTrust {
  validUntilMs: number;
}

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

/** A status change as the trade asks for it: from whatever status it is in. */
export type StatusRequest = Omit<StatusChange, 'from' | 'to'>;

/**
 * One trade while this worker holds its lease, from the moment its row is
 * loaded. The phases: `starting` (validation, recovery or a hand-over),
 * `running` (its ExecutionLoop steps), `finishing` (a terminal status is
 * being reached), `closed`. Its status changes only through changeStatus().
 * Maker fills take the hot path (`onMakerFill`): the hedge goes out first.
 */
export class TradeState {
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
  phase: Phase = 'starting';
  cancelRequested: boolean;
  failureReason: string | null = null;
  targetReached = false;
  /** An operator's halt (maintenance, kill switch) in force on the trade's venues. */
  halt: Halt | null;
  /** The maker venue refused an order as halted: paused until it answers again. */
  venueHalt: Halt | null = null;
  handingOver = false;
  chunkStarted = false;
  /** When the book moved and no request has followed yet (for the re-quote latency figure). */
  moveAt: number | null = null;
  /** A re-quote is waiting for the trade's request budget (its latency is the budget's, not the worker's). */
  heldByBudget = false;
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
    this.cancelRequested = init.loaded.cancelRequested;
    this.journal = init.journal;
    this.budget = init.budget;
    this.guard = init.guard;
    this.halt = init.halt;
    this.log = init.log;
    this.loop = new ExecutionLoop(this, init.services, init.onEnded);
    this.feed = new TradeFeed(this, init.services);
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

  /** Something may need doing: the loop steps (from the worker's scheduler). */
  wake(): void {
    this.loop.wake();
  }

  /** The worker's monotonic clock (durations, the fast-move guard). */
  now(): number {
    return this.services.clock.now();
  }

  /** What keeps the trade paused, if anything: an operator's halt first. */
  get haltInForce(): Halt | null {
    return this.halt ?? this.venueHalt;
  }

  /** False once the lease is (or may be) someone else's: then no venue is touched for this trade. */
  mayTouchVenue(): boolean {
    return this.phase !== 'closed' && this.services.clock.now() < this.trust.validUntilMs;
  }

  get filledSize(): Big {
    return this.fills.filled(this.terms.sizeType);
  }

  /** Appends to the log without waiting; a failure is logged (the journal retries transient ones). */
  record$(entries: LogEntry[], filledSize?: string): void {
    this.services.metrics.recordEntries(entries, this.record.market);
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

  /** Starts routing this trade's own fills and order updates to it. */
  listen(): void {
    this.feed.listen();
  }

  /** A venue refused a request as halted: the trade pauses until it answers again (decisions 3). */
  venueHalted(exchange: string): void {
    if (this.venueHalt?.exchange !== exchange) {
      this.log.warn({ exchange }, 'venue halted; pausing the trade');
    }
    this.venueHalt = { reason: 'venue_halted', exchange };
    this.wake();
  }

  fail(reason: string): void {
    if (this.failureReason === null) {
      this.failureReason = reason;
      this.log.error({ reason }, 'trade failing');
    }
    this.wake();
  }

  /** A maker fill of this trade (stream, read-back, reconciliation): the hot path (TradeFeed). */
  onMakerFill(fill: VenueFill): void {
    this.feed.onMakerFill(fill);
  }

  /** chunk_completed for a trade that ends after it started. */
  chunkCompleted(reason: 'target_reached' | 'canceled' | 'failed'): LogEntry[] {
    const hedger = this.open?.hedger;
    if (!this.chunkStarted || !hedger) {
      return [];
    }
    const residual = formatDecimal(hedger.residual());
    const filled = formatDecimal(this.filledSize);
    return [
      logEntry('chunk_completed', { filled_size: filled, reason, residual_unhedged: residual }),
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
    this.fills.fillsSinceAmendment = 0;
    if (sizeTypeChanged && this.phase !== 'closed') {
      this.record$([], formatDecimal(this.filledSize));
    }
    this.log.info(
      { amendment_version: next.amendmentVersion, target_size: formatDecimal(next.targetSize) },
      'amendment applied',
    );
    this.wake();
  }

  onControl(control: TradeControl): Promise<boolean> | boolean {
    if (this.phase === 'closed' || this.phase === 'finishing') {
      return control.kind === 'cancel';
    }
    if (control.kind === 'cancel') {
      this.cancelRequested = true;
      this.wake();
      return true;
    }
    return this.refreshTerms(control.amendment_version).then(() => true);
  }
}
