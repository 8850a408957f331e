import type Big from 'big.js';
import { compare, formatDecimal, requoteAction, signOf, type TradeStatus } from '@sts/domain';
import type { BudgetReleaseReason } from '@sts/contracts';
import { isVenueHalted } from '@sts/venues';
import { paid, tradeFills } from '../recovery/venue-truth';
import { desiredQuote } from './quoting/desired-quote';
import {
  hedgeMoveMatters,
  keptQuote,
  makerTouchMatters,
  quoteBasis,
  type KeptQuote,
  type QuoteBasis,
} from './quoting/kept-quote';
import type { MakerOutcome, RestingOrder } from './quoting/maker-orders';
import type { TradeState } from './trade-state';

/** Maker rejections that no retry cures: the trade fails. (A halted venue pauses it instead.) */
const FATAL_REJECTIONS = new Set(['insufficient_margin', 'unknown_market']);
/** How often a trade paused by a halted venue asks whether it is back. */
const HALTED_VENUE_PROBE_MS = 1_000;
const MAX_CONSECUTIVE_REJECTIONS = 5;
/** How far back a maker-fill check reads, before the first order this worker placed. */
const RECONCILE_MARGIN_MS = 10_000;

type Ending = 'completed' | 'canceled' | 'failed';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The running trade's loop: one step at a time, woken by book moves, fills,
 * control messages and timers. A step does the single most urgent thing:
 * fail, cancel, complete, pause, resume, or one quote cycle (place, keep or
 * take down the maker order). Venue requests are made one at a time and paid
 * from the maker bucket; everything that arrives meanwhile is seen by the
 * next step.
 */
export class ExecutionLoop {
  private stepping?: Promise<void>;
  private queued = false;
  private again = false;
  private wakeTimer?: NodeJS.Timeout;
  private wakeAtMs = Infinity;
  private consecutiveRejections = 0;
  private reconcileFromMs = Date.now() - RECONCILE_MARGIN_MS;
  /** The order the last quote cycle kept, when book moves that cannot change it can be told. */
  private kept: KeptQuote | null = null;

  constructor(
    private readonly trade: TradeState,
    private readonly onEnded: () => void,
  ) {
    trade.wake = () => this.wake();
    trade.makerTouchMatters = () => this.makerTouchMatters();
    trade.hedgeMoveMatters = (nowMs) => this.hedgeMoveMatters(nowMs);
  }

  /** Something may need doing: the step runs from the worker's scheduler (after pending I/O). */
  wake(): void {
    if (this.trade.phase !== 'running') {
      return;
    }
    if (this.stepping) {
      this.again = true;
      return;
    }
    if (this.queued) {
      return;
    }
    this.queued = true;
    this.trade.services.scheduler.schedule(this.runQueued);
  }

  private readonly runQueued = (): void => {
    this.queued = false;
    if (this.trade.phase !== 'running') {
      return;
    }
    if (this.stepping) {
      this.again = true;
      return;
    }
    this.stepping = this.loop().finally(() => {
      this.stepping = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
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

  /**
   * One step. When it asks for another (a re-quote after a cancel), that one
   * goes through the scheduler too, so a wave of venue answers cannot start a
   * wave of requests that holds the sockets.
   */
  private async loop(): Promise<void> {
    this.again = false;
    this.kept = null;
    try {
      await this.step();
    } catch (error) {
      if (this.trade.phase !== 'running') {
        return;
      }
      this.trade.log.error({ err: error }, 'execution step failed; retrying');
      this.wakeIn(500);
    }
  }

  private async step(): Promise<void> {
    const trade = this.trade;
    if (trade.handingOver) {
      return;
    }
    if (trade.failureReason !== null) {
      return this.finish('failed');
    }
    if (trade.cancelRequested) {
      return this.finish('canceled');
    }
    if (trade.targetReached) {
      return this.finish('completed');
    }
    const halt = trade.haltInForce;
    if (trade.status === 'active' && halt) {
      return this.pause();
    }
    if (trade.status === 'paused' && !halt) {
      return this.resume();
    }
    if (trade.status !== 'active') {
      return this.keepQuiet();
    }
    return this.quoteCycle();
  }

  /**
   * One quote cycle: first whatever the maker ledger says is unsettled (a
   * lost answer, fills the venue reported that the trade has not counted),
   * then the order that should rest now versus the one that does.
   */
  private async quoteCycle(): Promise<void> {
    const trade = this.trade;
    const orders = trade.makerOrders!;
    const market = trade.legs!.market;
    const obligation = orders.ledger.obligation(Date.now());
    switch (obligation.kind) {
      case 'settle':
        return this.obligationMet(await orders.settle(obligation.order));
      case 'settle_at':
        this.wakeIn(Math.max(1, obligation.atMs - Date.now()));
        return;
      case 'read_fills':
        return this.readUncountedFills();
      case 'cancel':
        return this.obligationMet(await orders.cancel(obligation.order));
      case 'quote':
        break;
    }
    // Out of budget: decide when a request can go, on the book as it is then.
    const budgetWait = trade.budget.maker.msUntilAvailable();
    if (budgetWait > 0) {
      trade.heldByBudget = true;
      this.wakeIn(Math.min(budgetWait, 60_000));
      return;
    }
    const now = trade.services.clock.now();
    // No maker order while the guard holds quoting, or while a hedge's fate is in doubt.
    const desired =
      trade.guard.held(now) || trade.hedger!.inDoubt
        ? ({ kind: 'none' } as const)
        : desiredQuote(market, trade.terms, trade.filledSize, {
            quoteMode: trade.record.quoteMode,
            worstSpread: trade.record.worstSpread,
            unhedgedResidue: trade.hedger!.waiting,
          });
    if (desired.kind === 'too_small' && trade.fills.fillsSinceAmendment > 0) {
      // A fill left nothing that can make one more order: the target is reached.
      trade.targetReached = true;
      this.again = true;
      return;
    }
    const holdUntil = trade.guard.holdUntil();
    if (holdUntil !== null && holdUntil > now) {
      this.wakeIn(Math.ceil(holdUntil - now) + 1);
    }
    const wanted = desired.kind === 'order' ? desired : null;
    const basis = wanted && quoteBasis(trade);
    const resting = orders.resting;
    let action = requoteAction(resting?.price ?? null, wanted?.price ?? null);
    if (action.kind === 'keep' && resting && wanted && !restsAsWanted(resting, wanted)) {
      action = { kind: 'replace', price: wanted.price };
    }
    switch (action.kind) {
      case 'none':
      case 'keep':
        trade.moveAt = null;
        trade.heldByBudget = false;
        if (action.kind === 'keep' && resting && wanted && basis) {
          this.kept = keptQuote(trade, resting, wanted.size, basis);
        }
        return;
      case 'place': {
        const outcome = await orders.place(wanted!.price, wanted!.size);
        this.keepPlaced(outcome, wanted!, basis);
        return this.handle(outcome);
      }
      case 'replace': {
        // One request where the venue amends in one; else a cancel now and a placement next step.
        const atOnce = trade.legs!.makerClient.replaceRequestCost === 1;
        const outcome = atOnce
          ? await orders.replace(wanted!.price, wanted!.size)
          : await orders.cancel();
        if (outcome.kind === 'done' && orders.resting === null) {
          this.again = true;
        }
        if (atOnce) {
          this.keepPlaced(outcome, wanted!, basis);
        }
        return this.handle(outcome);
      }
      case 'cancel':
        return this.handle(await orders.cancel());
    }
  }

  /**
   * The order this cycle placed rests as wanted: it is the kept quote, so the
   * book moves that cannot change it wake nothing (else the first one after
   * every re-quote would cost a step that only finds the order right).
   */
  private keepPlaced(
    outcome: MakerOutcome,
    wanted: { price: Big; size: Big },
    basis: QuoteBasis | null,
  ): void {
    const order = this.trade.makerOrders?.resting;
    if (
      outcome.kind === 'done' &&
      basis &&
      order &&
      order.fate === 'open' &&
      restsAsWanted(order, wanted)
    ) {
      this.kept = keptQuote(this.trade, order, wanted.size, basis);
    }
  }

  /** An obligation of the ledger was met: the next step sees what it leaves (another, or a quote). */
  private obligationMet(outcome: MakerOutcome): void {
    if (outcome.kind === 'done') {
      this.again = true;
    }
    this.handle(outcome);
  }

  private handle(outcome: MakerOutcome): void {
    const trade = this.trade;
    switch (outcome.kind) {
      case 'done':
        this.consecutiveRejections = 0;
        return;
      case 'halted':
        this.haltedVenue();
        return;
      case 'book_moved':
        // The next book update re-quotes; the timer covers a book that went quiet.
        this.wakeIn(250);
        return;
      case 'wait':
        this.wakeIn(outcome.ms);
        return;
      case 'rejected':
        this.consecutiveRejections += 1;
        trade.log.warn(
          { reason: outcome.reason, count: this.consecutiveRejections },
          'maker order rejected',
        );
        if (
          FATAL_REJECTIONS.has(outcome.reason) ||
          this.consecutiveRejections >= MAX_CONSECUTIVE_REJECTIONS
        ) {
          trade.fail(`maker order rejected by ${trade.record.makerExchange}: ${outcome.reason}`);
        } else {
          this.wakeIn(200 * this.consecutiveRejections);
        }
        return;
      case 'fatal':
        trade.fail(outcome.reason);
        return;
    }
  }

  /**
   * The venue said an order filled more than the trade has counted (a fill
   * the stream has not delivered, or lost while the socket was down). Nothing
   * is quoted until those fills are read back and hedged: a new order sized
   * without them would rest beyond what remains.
   */
  private async readUncountedFills(): Promise<void> {
    await this.reconcileMakerFills();
    const missing = this.trade.makerOrders!.ledger.uncounted();
    if (signOf(missing) > 0) {
      this.trade.log.warn(
        { uncounted: formatDecimal(missing) },
        'venue reports maker fills the fills read-back does not have yet; quoting held',
      );
      this.wakeIn(250);
      return;
    }
    this.again = true;
  }

  /** Reads this trade's maker fills back from the venue and takes any the stream missed. */
  private async reconcileMakerFills(): Promise<void> {
    const trade = this.trade;
    if (!trade.legs || !trade.mayTouchVenue()) {
      return;
    }
    const fills = await tradeFills(
      trade.legs.makerClient,
      trade.budget.maker,
      trade.tradeId,
      'maker',
      this.reconcileFromMs,
      trade.legs.market.makerMarket.symbol,
    );
    for (const fill of fills) {
      trade.onMakerFill(fill);
    }
  }

  /** Not quoting (paused, or between statuses): make sure no maker order rests. */
  private async keepQuiet(): Promise<void> {
    const trade = this.trade;
    if (trade.venueHalt && !trade.halt) {
      return this.probeHaltedVenue();
    }
    if (trade.makerOrders?.ledger.current) {
      await this.pullMakerOrders(false);
    }
  }

  /** The maker venue refused an order as halted: the trade pauses (decisions 3), it does not fail. */
  private haltedVenue(): void {
    this.trade.venueHalted(this.trade.record.makerExchange);
    this.again = true;
  }

  /**
   * While a venue of the trade is halted, asks it every second whether it
   * takes requests again (the trade's open orders there: a request a halted
   * venue refuses). Once it answers, the trade resumes; its maker order comes
   * down first if it still rests.
   */
  private async probeHaltedVenue(): Promise<void> {
    const trade = this.trade;
    const legs = trade.legs;
    const halted = trade.venueHalt;
    if (!legs || !halted || !trade.mayTouchVenue()) {
      return;
    }
    const onMaker = halted.exchange === trade.record.makerExchange;
    const client = onMaker ? legs.makerClient : legs.hedgeClient;
    const symbol = (onMaker ? legs.market.makerMarket : legs.market.hedgeMarket).symbol;
    try {
      await paid(onMaker ? trade.budget.maker : trade.budget.hedge, () =>
        client.openOrders(symbol),
      );
    } catch (error) {
      if (!isVenueHalted(error)) {
        trade.log.warn({ err: error }, 'halted venue probe failed');
      }
      this.wakeIn(HALTED_VENUE_PROBE_MS);
      return;
    }
    trade.log.info({ exchange: halted.exchange }, 'halted venue answers again; resuming');
    trade.venueHalt = null;
    this.again = true;
  }

  /**
   * Takes every maker order down and settles every one whose answer was lost,
   * retrying until the venue confirms (or the lease is gone); fills the venue
   * reported are read back on the way. For a pause (`untilConfirmed` false) a
   * halted venue, which refuses cancels and matches nothing, ends the attempt:
   * the order is taken down once the venue is back. A trade that ends keeps
   * trying: it must not leave an order that could fill unhedged.
   */
  private async pullMakerOrders(untilConfirmed = true): Promise<void> {
    const trade = this.trade;
    const orders = trade.makerOrders;
    if (!orders) {
      return;
    }
    for (let attempt = 0; trade.mayTouchVenue(); attempt += 1) {
      const now = Date.now();
      const obligation = orders.ledger.obligation(now);
      let outcome: MakerOutcome = { kind: 'done' };
      switch (obligation.kind) {
        case 'settle':
          outcome = await orders.settle(obligation.order);
          break;
        case 'settle_at':
          await sleep(Math.max(1, obligation.atMs - now));
          continue;
        case 'read_fills':
          await this.reconcileMakerFills().catch((error: unknown) =>
            trade.log.warn({ err: error }, 'could not read maker fills back'),
          );
          if (signOf(orders.ledger.uncounted()) > 0) {
            await sleep(Math.min(100 * 2 ** attempt, 2_000));
          }
          continue;
        case 'cancel':
          outcome = await orders.cancel(obligation.order);
          break;
        case 'quote':
          if (!obligation.current) {
            return;
          }
          outcome = await orders.cancel(obligation.current);
          break;
      }
      if (outcome.kind === 'halted' && !untilConfirmed) {
        return this.haltedVenue();
      }
      if (outcome.kind !== 'done') {
        await sleep(Math.min(100 * 2 ** attempt, 2_000));
      }
    }
  }

  private async pause(): Promise<void> {
    const trade = this.trade;
    await this.pullMakerOrders(false);
    const halt = trade.haltInForce;
    if (trade.phase !== 'running' || !halt) {
      return;
    }
    await trade.journal.changeStatus({
      from: 'active',
      to: 'paused',
      eventData: { reason: halt.reason, exchange: halt.exchange },
    });
    trade.status = 'paused';
    trade.log.info({ reason: halt.reason, exchange: halt.exchange }, 'trade paused');
  }

  private async resume(): Promise<void> {
    const trade = this.trade;
    await trade.journal.changeStatus({ from: 'paused', to: 'active', eventData: {} });
    trade.status = 'active';
    trade.log.info('trade resumed');
    this.again = true;
  }

  /**
   * Ends the trade: the maker order comes down, fills the stream may have
   * missed are read back (and hedged), every hedge finishes (a hedge is never
   * abandoned), then the terminal status is written with chunk_completed.
   */
  async finish(ending: Ending): Promise<void> {
    const trade = this.trade;
    trade.phase = 'finishing';
    this.stop();
    await this.pullMakerOrders();
    if (trade.chunkStarted && trade.legs && trade.mayTouchVenue()) {
      await this.reconcileWithRetry();
    }
    await trade.hedger?.idle();
    await trade.journal.idle();
    const to: TradeStatus = trade.failureReason !== null ? 'failed' : ending;
    const from = trade.status;
    const filledSize = formatDecimal(trade.filledSize);
    const unhedged = trade.hedger ? formatDecimal(trade.hedger.outstanding) : '0';
    const failureReason =
      to === 'failed'
        ? `${trade.failureReason}; unhedged size ${unhedged} ${trade.record.market} on ${trade.record.hedgeExchange}`
        : undefined;
    await trade.journal.changeStatus({
      from,
      to,
      entries: trade.chunkCompleted(to === 'completed' ? 'target_reached' : to),
      failureReason,
      fastMoveGuardStats: trade.guard.enabled
        ? trade.guard.finish(trade.services.clock.now())
        : undefined,
      filledSize,
      eventData: {
        filled_size: filledSize,
        target_size: formatDecimal(trade.terms.targetSize),
        ...(failureReason ? { failure_reason: failureReason, unhedged_size: unhedged } : {}),
      },
    });
    trade.status = to;
    trade.log.info(
      { status: to, filled_size: filledSize, failure_reason: failureReason },
      'trade ended',
    );
    await trade.budget.release(releaseReason(to));
    this.onEnded();
  }

  /** For a hand-over: no maker order resting, no fill unread, no hedge running, the log written. */
  async quiesce(): Promise<void> {
    const trade = this.trade;
    this.stop();
    await this.pullMakerOrders();
    if (trade.chunkStarted && trade.legs && trade.mayTouchVenue()) {
      await this.reconcileWithRetry();
    }
    await trade.hedger?.idle();
    await trade.journal.idle();
  }

  private async reconcileWithRetry(): Promise<void> {
    for (let attempt = 1; attempt <= 5 && this.trade.mayTouchVenue(); attempt += 1) {
      try {
        await this.reconcileMakerFills();
        return;
      } catch (error) {
        this.trade.log.warn({ err: error, attempt }, 'could not read maker fills back');
        await sleep(200 * attempt);
      }
    }
  }
}

/** The order rests at the wanted price with the wanted size left. */
function restsAsWanted(order: RestingOrder, wanted: { price: Big; size: Big }): boolean {
  return (
    compare(order.price, wanted.price) === 0 &&
    compare(order.size.minus(order.seenFilled), wanted.size) === 0
  );
}

function releaseReason(status: TradeStatus): BudgetReleaseReason {
  switch (status) {
    case 'completed':
    case 'canceled':
    case 'rejected':
    case 'failed':
      return status;
    case 'pending':
    case 'validating':
    case 'active':
    case 'paused':
    case 'recovering':
      return 'failed';
  }
}
