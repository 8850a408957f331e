import type Big from 'big.js';
import {
  applyEntry,
  emptyLedger,
  formatDecimal,
  isTerminalTradeStatus,
  ledgerFilled,
  tradeTag,
  type TradeLedger,
  type TradeStatus,
} from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueFill } from '@sts/venues';
import type { LogEntry, TradeControl } from '@sts/contracts';
import { type LeaseLostError, logUnwritten } from '../execution-log/trade-journal';
import { hedgeFailureReason } from './hedging/hedge-entries';
import { HedgeTimes } from './hedging/hedge-times';
import { untilTrusted, type LeaseTrust } from './lease-trust';
import type { Lease } from '../lease/lease.repository';
import type { AmendableTerms, LoadedTrade, TradeRecord } from '../trades/trade-record';
import { ExecutionLoop } from './execution-loop';
import { type FastMoveWatch } from './fast-move-watch';
import type { OpenTrade } from './open-trade';
import type { Halt } from './runner-services';
import type { StepRank } from './step-scheduler';
import { type TradeBudget } from './trade-budget';
import { TradeFeed, type LateOrderListener } from './trade-feed';
import * as phases from './trade-phase';
import type { Ending, TradePhase } from './trade-phase';
import type { TradeServices } from './trade-services';
import { RequoteTiming } from './quoting/requote-timing';
import type { StatusRequest, TradeView, TradeWrites } from './trade-view';

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
 * Its status changes only through changeStatus(), what it filled and hedged
 * only through apply() (the fold of its log). Maker fills take the hot path
 * (`onMakerFill`): the hedge goes out first.
 */
export class TradeState implements TradeView {
  readonly tradeId: string;
  readonly tradeTag: string;
  /** The fencing epoch of this worker's lease. */
  readonly epoch: string;
  readonly record: TradeRecord;
  readonly journal: TradeWrites;
  readonly budget: TradeBudget;
  readonly guard: FastMoveWatch;
  readonly loop: ExecutionLoop;
  private readonly feed: TradeFeed;
  readonly abort = new AbortController();
  /** Times each re-quote from the book move it answers (the re-quote latency figure). */
  readonly requoteTiming = new RequoteTiming();
  readonly log: Logger;
  private currentPhase: TradePhase;
  private operatorHalt: Halt | null;
  private haltedVenue: Halt | null = null;
  /** The fold of every entry logged for the trade (its log at the start, then all it applied). */
  private folded: TradeLedger = emptyLedger();
  /** Maker fills folded when the amendment in force came: a trade completes on a fill after it. */
  private fillsAtAmendment = 0;
  private readonly hedgeTimes = new HedgeTimes();
  private currentStatus: TradeStatus;
  private currentTerms: AmendableTerms;
  private opened: OpenTrade | null = null;
  private readonly services: TradeServices;
  private readonly trust: LeaseTrust;

  constructor(init: TradeStateInit) {
    this.services = init.services;
    this.epoch = init.lease.epoch;
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

  /** What the trade's log says of it: the fold of every entry (TradeLedger). */
  get ledger(): TradeLedger {
    return this.folded;
  }

  /** Maker fills since the amendment in force (all of them when none): a trade completes on one. */
  get fillsSinceAmendment(): number {
    return this.folded.makerFills.length - this.fillsAtAmendment;
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
    this.fold(request.entries ?? []);
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
    return ledgerFilled(this.folded, this.terms.sizeType);
  }

  /**
   * The one way the money path changes the trade: the entries are folded
   * into its ledger (applyEntry), handed to the journal (with filled_size
   * when a maker fill moved it), timed for the metrics, and a hedge that
   * failed fails the trade. Nothing waits for the write; the promise settles
   * with it (a failure is logged here; the journal retries transient ones).
   */
  apply(entries: readonly LogEntry[]): Promise<void> {
    const before = this.folded;
    this.fold(entries);
    const filledSize =
      this.folded.makerFilled !== before.makerFilled ? formatDecimal(this.filledSize) : undefined;
    const written = this.journal.append([...entries], filledSize);
    written.catch((error: unknown) => logUnwritten(this.log, error));
    return written;
  }

  /** Every start replays the trade's log: the ledger is its fold. */
  replay(entries: readonly LogEntry[]): void {
    this.folded = emptyLedger();
    this.fold(entries, 'replayed');
    this.countFillsFromStart();
  }

  /**
   * After a start's replay and reconciliation: a trade that reached its
   * target just before changing hands completes on the next cycle; one
   * amended since (to its filled size, say) does not (interface: it stays in
   * its status), so then no fill so far counts toward completion.
   */
  countFillsFromStart(): void {
    const fillsComplete = this.currentTerms.amendmentVersion === 0;
    this.fillsAtAmendment = fillsComplete ? 0 : this.folded.makerFills.length;
  }

  /** Folds entries and derives what they mean; the metrics count what happens here, not `replayed`. */
  private fold(entries: readonly LogEntry[], source: 'live' | 'replayed' = 'live'): void {
    const failedBefore = this.folded.hedgeFailure;
    for (const entry of entries) {
      this.folded = applyEntry(this.folded, entry);
      const ended = source === 'live' ? this.hedgeTimes.observe(entry, this.now()) : null;
      if (ended) {
        this.services.metrics.recordHedgeEnded(ended.exchange, ended.result, ended.elapsedMs);
      }
    }
    const failure = this.folded.hedgeFailure;
    if (failure !== null && failedBefore === null) {
      const { hedgeTimeoutMs } = this.services.venues[this.record.hedgeExchange];
      this.fail(hedgeFailureReason(failure.result, failure.exchange, hedgeTimeoutMs));
    }
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

  /**
   * Nothing more is done for the trade here: its venues, budget and journal
   * (closed by `cause`) are let go. Returns whether a journal write was left
   * unfinished (TradeJournal.close): the lease must then be kept to expire.
   */
  close(cause?: LeaseLostError): boolean {
    this.currentPhase = phases.close(this.currentPhase);
    this.loop.stop();
    this.abort.abort(new Error('trade closed on this worker'));
    this.opened?.legs.close();
    this.opened?.markouts.close();
    this.budget.close('trade closed on this worker');
    return this.journal.close(cause);
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

  /** A maker fill of this trade (stream, read-back, reconciliation): the hot path (TradeFeed). */
  onMakerFill(fill: VenueFill): void {
    this.feed.onMakerFill(fill);
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
    this.fillsAtAmendment = this.folded.makerFills.length;
    if (sizeTypeChanged && this.currentPhase.kind !== 'closed') {
      this.journal.append([], formatDecimal(this.filledSize)).catch((error: unknown) => {
        this.log.warn({ err: error }, 'filled_size in the new size type not written');
      });
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
