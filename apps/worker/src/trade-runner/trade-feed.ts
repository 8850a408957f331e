import Big from 'big.js';
import type { VenueFill, VenueOrder } from '@sts/venues';
import type { LogEntry } from '@sts/contracts';
import { makerFillEntry } from '../execution-log/fill-entries';
import { openTrade, type OpenTrade } from './open-trade';
import type { ExecutionLoop } from './execution-loop';
import { MoveUrgency } from './quoting/move-urgency';
import type { StepRank } from './step-scheduler';
import type { TradeServices } from './trade-services';
import type { TradeView } from './trade-view';

/** What cancels a dead worker's maker orders that land after a takeover (recovery/late-maker-orders.ts). */
export interface LateOrderListener {
  onOrder(order: VenueOrder): void;
}

/**
 * A trade's traffic with its venues: opening the legs, and everything they
 * send it: its own maker fills (the hot path: the hedge goes out before
 * anything else), its order updates, and the book moves that may call for a
 * new quote.
 */
export class TradeFeed {
  private readonly urgency: MoveUrgency;
  /** After a takeover, what cancels a dead worker's maker orders landing late (recovery/late-maker-orders.ts). */
  private lateOrders: LateOrderListener | null = null;

  constructor(
    private readonly trade: TradeView,
    /** Tells the book moves that cannot change the kept quote (they wake nothing). */
    private readonly loop: Pick<ExecutionLoop, 'makerTouchMatters' | 'hedgeMoveMatters'>,
    private readonly services: TradeServices,
  ) {
    this.urgency = new MoveUrgency(trade);
  }

  /** Opens both venues and builds the parts that trade on them. */
  async open(): Promise<OpenTrade> {
    const trade = this.trade;
    const legs = await this.services.openLegs(
      trade.record,
      {
        onMakerMove: (receivedAtMs) => this.onBookMove(receivedAtMs),
        onHedgeMove: (receivedAtMs) => this.onHedgeMove(receivedAtMs),
        onStale: () => trade.wake(),
      },
      trade.budget,
    );
    const reference = legs.market.hedgeReference();
    if (reference) {
      trade.guard.prime(this.services.clock.now(), reference);
    }
    const { clock, venues, answerTimes, unboundedRequestWaitMs } = this.services;
    return openTrade(
      legs,
      {
        tradeId: trade.tradeId,
        epoch: trade.epoch,
        record: trade.record,
        venues,
        answerTimes,
        unboundedRequestWaitMs,
        budget: trade.budget,
        clock,
        signal: trade.abort.signal,
        log: trade.log,
      },
      {
        maxSlippage: () => trade.terms.maxSlippage,
        spreadType: () => trade.terms.spread.spreadType,
        mayTouchVenue: () => trade.mayTouchVenue(),
        untilTrusted: () => trade.untilTrusted(),
        apply: (entries) => void trade.apply(entries),
        venueHalted: (exchange) => trade.venueHalted(exchange),
        wake: () => trade.wake(),
        makerRequestSent: (waited) => this.onMakerRequestSent(waited),
      },
    );
  }

  /**
   * Starts routing this trade's own fills and order updates to it; after a
   * takeover, the maker account's order updates also go to `lateOrders`.
   */
  listen(lateOrders?: LateOrderListener): void {
    this.lateOrders = lateOrders ?? null;
    const trade = this.trade;
    trade.open?.legs.listen(
      trade.tradeTag,
      {
        onFill: (fill) => this.onMakerAccountFill(fill),
        onOrder: (order) => this.onMakerOrder(order),
        bucket: trade.budget.maker,
      },
      // Hedge results come from the IOC answers; the hedge account's stream adds nothing.
      {
        onFill: () => undefined,
        onOrder: () => undefined,
        ...(trade.budget.hedge ? { bucket: trade.budget.hedge } : {}),
      },
    );
  }

  /**
   * The hot path. A maker fill is counted and its hedge sent synchronously;
   * only then is it logged, classified by the guard and the loop woken.
   */
  onMakerFill(fill: VenueFill): void {
    const trade = this.trade;
    const receivedAt = this.services.clock.now();
    const open = trade.open;
    const price = new Big(fill.price);
    const size = new Big(fill.size);
    // Counted once by its fill id: the ledger takes it (apply, below) before anything can come between.
    if (!open || trade.ledger.fillIds.has(fill.fillId)) {
      return;
    }
    const started = open.hedger.onMakerFill(fill.fillId, price, size);
    const sentAtMs = started?.sent ? started.series.firstSentAtMs : null;
    if (sentAtMs !== null) {
      this.services.metrics.recordFillToHedgeSent(
        trade.record.hedgeExchange,
        sentAtMs - receivedAt,
      );
    }
    // The hedge is out. Everything below may take its time.
    open.makerOrders.onFill(fill);
    const guardClass = trade.guard.enabled
      ? trade.guard.classifyFill(receivedAt, open.legs.market.hedgeReference())
      : null;
    if (started) {
      started.series.guardFillClass = guardClass;
      if (guardClass === null && trade.guard.enabled) {
        // The move that ran the order over may reach the worker just after the
        // fill it caused: class the fill again when its hedge ends.
        const heldAtFill = trade.guard.lastHedgeReference;
        started.series.classifyLate = () =>
          trade.guard.classifyFill(receivedAt, open.legs.market.hedgeReference(), heldAtFill);
      }
    }
    const entries: LogEntry[] = [makerFillEntry(fill, open.legs.market.makerMarket.quote ?? null)];
    if (started?.sent) {
      entries.push(started.sent);
    }
    const spell = open.makerOrders.spells.take();
    if (spell) {
      entries.push(spell);
    }
    void trade.apply(entries);
    open.markouts.onFill({ fillId: fill.fillId, price, size, timestampMs: fill.timestampMs });
    trade.wakeAfterReads();
  }

  private onMakerAccountFill(fill: VenueFill): void {
    if (this.trade.open?.makerOrders.isMakerOrder(fill.clientOrderId)) {
      this.onMakerFill(fill);
    }
  }

  /** An order update matters only when it took the resting order away (filled, canceled). */
  private onMakerOrder(order: VenueOrder): void {
    this.lateOrders?.onOrder(order);
    const makerOrders = this.trade.open?.makerOrders;
    const resting = makerOrders?.resting;
    makerOrders?.onOrder(order);
    if (makerOrders?.resting !== resting) {
      this.trade.wake();
    }
  }

  private onBookMove(receivedAtMs: number): void {
    const trade = this.trade;
    if (this.ended() || !this.loop.makerTouchMatters()) {
      return;
    }
    trade.requoteTiming.noteBookMove(receivedAtMs);
    trade.wake(this.rankMove);
  }

  /** H moved: the guard watches every move; the loop steps only if the quote may change. */
  private onHedgeMove(receivedAtMs: number): void {
    const trade = this.trade;
    const now = this.services.clock.now();
    const { guard, open } = trade;
    if (open?.hedger.deferred) {
      // A hedge waited for H: there is one now.
      const started = open.hedger.hedgeDeferred();
      if (started?.sent) {
        void trade.apply([started.sent]);
      }
    }
    if (this.ended()) {
      return; // its book stays open only for its fills' markouts
    }
    const reference = open?.legs.market.hedgeReference();
    const triggered =
      reference && guard.enabled
        ? guard.observe(now, reference, open?.makerOrders.resting?.price ?? null)
        : null;
    if (triggered) {
      trade.log.info(
        { move_bps: triggered.trigger.moveBps, action: triggered.trigger.action },
        'fast-move guard triggered',
      );
      void trade.apply([triggered.entry]);
    } else if (!this.loop.hedgeMoveMatters(now)) {
      return;
    }
    trade.requoteTiming.noteBookMove(receivedAtMs);
    trade.wake(this.rankMove);
  }

  /** The trade is ending or ended: a book move changes nothing for it. */
  private ended(): boolean {
    const { kind } = this.trade.phase;
    return kind === 'ending' || kind === 'closed';
  }

  /**
   * How urgent the moves made the woken step, asked by the scheduler only
   * when the step must wait for a later slice.
   */
  private readonly rankMove: StepRank = () => {
    const urgency = this.urgency.of(this.services.clock.now());
    this.trade.requoteTiming.noteMoveRanked(urgency);
    return urgency;
  };

  /** A re-quote went out: its latency counts unless the trade's budget made it wait (by design). */
  private onMakerRequestSent(waitedForBudget: boolean): void {
    const requote = this.trade.requoteTiming.sent(waitedForBudget);
    if (requote === null) {
      return;
    }
    const { movedAt, heldByBudget, turn } = requote;
    if (heldByBudget) {
      this.services.metrics.recordRequoteHeld();
      return;
    }
    // Timed to the moment its frame left for the kernel, which a burst may hold back a little.
    const { clock, metrics } = this.services;
    this.services.coalescer.whenSent(() => metrics.recordRequote(clock.now() - movedAt, turn));
  }
}
