import Big from 'big.js';
import type { TradeControl } from '@sts/contracts';
import { formatDecimal, hedgeSide, makerSide, tradeTag, type TradeStatus } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueFill, VenueOrder } from '@sts/venues';
import { logEntry, type LogEntry } from '../execution-log/log-entries';
import { LeaseLostError, type TradeJournal } from '../execution-log/trade-journal';
import type { Acquisition, Lease } from '../lease/lease.repository';
import { makerFillEntry } from '../recovery/reconcile-trade';
import type { AmendableTerms, TradeRecord } from '../trades/trade-record';
import { type FastMoveWatch } from './fast-move-watch';
import { Hedger } from './hedging/hedger';
import { MakerFills } from './maker-fills';
import type { Halt, RunnerServices } from './runner-services';
import { type TradeBudget } from './trade-budget';
import { openTradeLegs, type TradeLegs } from './trade-legs';
import { MakerOrders } from './quoting/maker-orders';

/** Share of the lease TTL this worker trusts its lease for after a renewal began. */
const LEASE_TRUST = 0.8;

type Phase = 'starting' | 'running' | 'finishing' | 'closed';

/**
 * Everything one trade needs while this worker holds its lease. The phases:
 * `starting` (validation, recovery or a hand-over), `running` (the execution
 * loop in ExecutionLoop), `finishing` (a terminal status is being reached),
 * `closed`. Maker fills take the hot path (`onMakerFill`): the hedge goes out
 * before anything else.
 */
export class TradeState {
  readonly tradeId: string;
  readonly tradeTag: string;
  readonly lease: Lease;
  readonly log: Logger;
  readonly abort = new AbortController();
  readonly fills = new MakerFills();
  phase: Phase = 'starting';
  leaseValidUntil: number;

  record!: TradeRecord;
  terms!: AmendableTerms;
  status!: TradeStatus;
  journal!: TradeJournal;
  budget!: TradeBudget;
  guard!: FastMoveWatch;
  legs?: TradeLegs;
  hedger?: Hedger;
  makerOrders?: MakerOrders;

  cancelRequested = false;
  failureReason: string | null = null;
  targetReached = false;
  /** An operator's halt (maintenance, kill switch) in force on the trade's venues. */
  halt: Halt | null = null;
  /** The maker venue refused an order as halted: paused until it answers again. */
  venueHalt: Halt | null = null;
  handingOver = false;
  chunkStarted = false;
  /** When the book moved and no request has followed yet (for the re-quote latency figure). */
  moveAt: number | null = null;
  /** A re-quote is waiting for the trade's request budget (its latency is the budget's, not the worker's). */
  heldByBudget = false;
  /** Set by the execution loop: called whenever something may need doing. */
  wake: () => void = () => undefined;
  /** Set by the execution loop: false when a maker touch move cannot change the quote. */
  makerTouchMatters: () => boolean = () => true;
  /** Set by the execution loop: false when an H move cannot change the quote. */
  hedgeMoveMatters: (nowMs: number) => boolean = () => true;

  constructor(
    readonly services: RunnerServices,
    readonly acquisition: Acquisition,
    readonly correlationId: string,
    acquiredAtMs: number,
  ) {
    this.tradeId = acquisition.lease.tradeId;
    this.tradeTag = tradeTag(this.tradeId);
    this.lease = acquisition.lease;
    this.leaseValidUntil = acquiredAtMs + services.leaseTtlMs * LEASE_TRUST;
    this.log = services.logger.child({ trade_id: this.tradeId, correlation_id: correlationId });
  }

  /** What keeps the trade paused, if anything: an operator's halt first. */
  get haltInForce(): Halt | null {
    return this.halt ?? this.venueHalt;
  }

  /** False once the lease is (or may be) someone else's: then no venue is touched for this trade. */
  mayTouchVenue(): boolean {
    return this.phase !== 'closed' && this.services.clock.now() < this.leaseValidUntil;
  }

  get filledSize(): Big {
    return this.fills.filled(this.terms.sizeType);
  }

  /** Appends to the log without waiting; a failure is logged (the journal retries transient ones). */
  record$(entries: LogEntry[], filledSize?: string): void {
    this.services.metrics.recordEntries(entries, this.record?.market ?? 'unknown');
    this.journal.append(entries, filledSize).catch((error: unknown) => {
      if (!(error instanceof LeaseLostError)) {
        this.log.error({ err: error }, 'execution log write lost');
      }
    });
  }

  /** Opens both venues and builds the parts that trade on them. */
  async openLegs(): Promise<void> {
    const legs = await openTradeLegs(this.services, this.record, {
      onMakerMove: (receivedAtMs) => this.onBookMove(receivedAtMs),
      onHedgeMove: (receivedAtMs) => this.onHedgeMove(receivedAtMs),
      onStale: () => this.wake(),
    });
    this.legs = legs;
    const reference = legs.market.hedgeReference();
    if (reference) {
      this.guard.prime(this.services.clock.now(), reference);
    }
    const venues = this.services.venues;
    this.hedger = new Hedger({
      tradeId: this.tradeId,
      makerLeg: this.record.makerLeg,
      venue: {
        client: legs.hedgeClient,
        leg: legs.market.hedgeMarket,
        side: hedgeSide(this.record.makerLeg),
        timeoutMs: venues[this.record.hedgeExchange].hedgeTimeoutMs,
      },
      market: legs.market,
      coarserTickSize: legs.market.makerMarket.rules.tickSize.gt(
        legs.market.hedgeMarket.rules.tickSize,
      )
        ? legs.market.makerMarket.rules.tickSize
        : legs.market.hedgeMarket.rules.tickSize,
      maxSlippage: () => this.terms.maxSlippage,
      spreadType: () => this.terms.spread.spreadType,
      bucket: this.budget.hedge,
      clock: this.services.clock,
      mayTouchVenue: () => this.mayTouchVenue(),
      emit: (entries) => this.record$(entries),
      onFailure: (reason) => this.fail(reason),
      onEnded: (result, elapsedMs) =>
        this.services.metrics.recordHedgeEnded(this.record.hedgeExchange, result, elapsedMs),
      onVenueHalted: () => this.venueHalted(this.record.hedgeExchange),
      onDoubtChanged: () => this.wake(),
      logger: this.log,
    });
    this.makerOrders = new MakerOrders({
      tradeId: this.tradeId,
      epoch: this.lease.epoch,
      client: legs.makerClient,
      leg: legs.market.makerMarket,
      side: makerSide(this.record.makerLeg),
      bucket: this.budget.maker,
      signal: this.abort.signal,
      onRequestSent: (waited) => this.onMakerRequestSent(waited),
    });
  }

  /** Starts routing this trade's own fills and order updates to it. */
  listen(): void {
    this.legs?.listen(
      this.tradeTag,
      {
        onFill: (fill) => this.onMakerAccountFill(fill),
        onOrder: (order) => this.onMakerOrder(order),
        bucket: this.budget.maker,
      },
      // Hedge results come from the IOC answers; the hedge account's stream adds nothing.
      {
        onFill: () => undefined,
        onOrder: () => undefined,
        ...(this.budget.hedge ? { bucket: this.budget.hedge } : {}),
      },
    );
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

  /**
   * The hot path. A maker fill is counted and its hedge sent synchronously;
   * only then is it logged, classified by the guard and the loop woken.
   */
  onMakerFill(fill: VenueFill): void {
    const receivedAt = this.services.clock.now();
    const price = new Big(fill.price);
    const size = new Big(fill.size);
    if (!this.hedger || !this.fills.record(fill.fillId, price, size)) {
      return;
    }
    const started = this.hedger.onMakerFill(fill.fillId, price, size);
    if (started?.sent) {
      this.services.metrics.recordFillToHedgeSent(
        this.record.hedgeExchange,
        this.services.clock.now() - receivedAt,
      );
    }
    // The hedge is out. Everything below may take its time.
    this.makerOrders?.onFill(fill);
    const market = this.legs?.market;
    const guardClass = this.guard.enabled
      ? this.guard.classifyFill(receivedAt, market?.hedgeReference() ?? null)
      : null;
    if (started) {
      started.series.guardFillClass = guardClass;
    }
    const entries = [makerFillEntry(fill)];
    if (started?.sent) {
      entries.push(started.sent);
    }
    this.record$(entries, formatDecimal(this.filledSize));
    this.wake();
  }

  private onMakerAccountFill(fill: VenueFill): void {
    if (this.makerOrders?.isMakerOrder(fill.clientOrderId)) {
      this.onMakerFill(fill);
    }
  }

  /** An order update matters only when it took the resting order away (filled, canceled). */
  private onMakerOrder(order: VenueOrder): void {
    const resting = this.makerOrders?.resting;
    this.makerOrders?.onOrder(order);
    if (this.makerOrders?.resting !== resting) {
      this.wake();
    }
  }

  private onBookMove(receivedAtMs: number): void {
    if (!this.makerTouchMatters()) {
      return;
    }
    this.moveAt ??= receivedAtMs;
    this.wake();
  }

  /** H moved: the guard watches every move; the loop steps only if the quote may change. */
  private onHedgeMove(receivedAtMs: number): void {
    const now = this.services.clock.now();
    const reference = this.legs?.market.hedgeReference();
    const triggered =
      reference && this.guard.enabled
        ? this.guard.observe(now, reference, this.makerOrders?.resting?.price ?? null)
        : null;
    if (triggered) {
      this.log.info(
        { move_bps: triggered.trigger.moveBps, action: triggered.trigger.action },
        'fast-move guard triggered',
      );
      this.record$([triggered.entry]);
    } else if (!this.hedgeMoveMatters(now)) {
      return;
    }
    this.moveAt ??= receivedAtMs;
    this.wake();
  }

  /** A re-quote went out: its latency counts unless the trade's budget made it wait (by design). */
  private onMakerRequestSent(waitedForBudget: boolean): void {
    const held = waitedForBudget || this.heldByBudget;
    this.heldByBudget = false;
    if (this.moveAt === null) {
      return;
    }
    const movedAt = this.moveAt;
    this.moveAt = null;
    if (held) {
      this.services.metrics.recordRequoteHeld();
      return;
    }
    // Timed to the moment its frame left for the kernel, which a burst may hold back a little.
    const { clock, metrics } = this.services;
    this.services.coalescer.whenSent(() => metrics.recordRequote(clock.now() - movedAt));
  }

  /** chunk_completed for a trade that ends after it started. */
  chunkCompleted(reason: 'target_reached' | 'canceled' | 'failed'): LogEntry[] {
    if (!this.chunkStarted || !this.hedger) {
      return [];
    }
    return [
      logEntry('chunk_completed', {
        filled_size: formatDecimal(this.filledSize),
        reason,
        residual_unhedged: formatDecimal(this.hedger.residual()),
      }),
    ];
  }

  /** Applies the amended terms stored on the row (version `version` or later). */
  async applyAmendment(version: number): Promise<void> {
    if (version <= this.terms.amendmentVersion) {
      return;
    }
    await this.refreshTerms();
  }

  /**
   * Takes the terms stored on the row if they are newer than the ones held:
   * an amendment stored while the trade was validating or recovering, when
   * no control message could reach it (decisions 4), is in force before the
   * first quote.
   */
  async refreshTerms(): Promise<void> {
    const next = await this.services.reader.amendableTerms(this.tradeId);
    if (next.amendmentVersion <= this.terms.amendmentVersion) {
      return;
    }
    const sizeTypeChanged = next.sizeType !== this.terms.sizeType;
    this.terms = {
      targetSize: next.targetSize,
      sizeType: next.sizeType,
      spread: next.spread,
      maxSlippage: next.maxSlippage,
      amendmentVersion: next.amendmentVersion,
    };
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
    return this.applyAmendment(control.amendment_version).then(() => true);
  }
}
