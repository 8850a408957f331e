import { formatDecimal, makerSide, signOf } from '@sts/domain';
import { backoffDelay, sleep } from '@sts/platform';
import { isVenueHalted } from '@sts/venues';
import { tradeFills } from '../recovery/venue-truth';
import { paid } from '../venue-sessions/paid-requests';
import type { LoopControl } from './loop-control';
import type { MakerOutcome } from './quoting/maker-orders';
import type { TradeView } from './trade-view';

/** What taking the maker side down reads and tells of its trade. */
export type TakedownTrade = Pick<
  TradeView,
  | 'open'
  | 'log'
  | 'mayTouchVenue'
  | 'budget'
  | 'tradeId'
  | 'onMakerFill'
  | 'record'
  | 'venueHalt'
  | 'venueAnswers'
>;

/** How often a trade paused by a halted venue asks whether it is back. */
const HALTED_VENUE_PROBE_MS = 1_000;
/** How far back a maker-fill check reads, before the first order this worker placed. */
const RECONCILE_MARGIN_MS = 10_000;

/** The wait after the `attempt`-th (from 0) request that did not settle: 100 ms doubling, at most 2 s. */
const backoff = (attempt: number): number =>
  backoffDelay(attempt + 1, { baseDelayMs: 100, maxDelayMs: 2_000 });

/**
 * Bringing the maker side to rest: taking every maker order down (settling
 * the ones whose answer was lost), reading back the fills the stream missed,
 * and asking a halted venue whether it is back.
 */
export class MakerTakedown {
  private readonly reconcileFromMs = Date.now() - RECONCILE_MARGIN_MS;

  constructor(
    private readonly trade: TakedownTrade,
    private readonly loop: LoopControl,
  ) {}

  /**
   * The venue said an order filled more than the trade has counted (a fill
   * the stream has not delivered, or lost while the socket was down). Nothing
   * is quoted until those fills are read back and hedged: a new order sized
   * without them would rest beyond what remains.
   */
  async readUncountedFills(): Promise<void> {
    await this.reconcileMakerFills();
    const missing = this.trade.open?.makerOrders.ledger.uncounted();
    if (missing && signOf(missing) > 0) {
      this.trade.log.warn(
        { uncounted: formatDecimal(missing) },
        'venue reports maker fills the fills read-back does not have yet; quoting held',
      );
      this.loop.wakeIn(250);
      return;
    }
    this.loop.stepAgain();
  }

  /** Reads this trade's maker fills back from the venue and takes any the stream missed. */
  async reconcileMakerFills(): Promise<void> {
    const trade = this.trade;
    const legs = trade.open?.legs;
    if (!legs || !trade.mayTouchVenue()) {
      return;
    }
    const fills = await tradeFills(
      legs.makerClient,
      trade.budget.maker,
      trade.tradeId,
      { kind: 'maker', side: makerSide(trade.record.makerLeg) },
      this.reconcileFromMs,
      legs.market.makerMarket.symbol,
    );
    for (const fill of fills) {
      trade.onMakerFill(fill);
    }
  }

  /**
   * The same, retried a few times (a trade that ends or hands over must not
   * miss a fill). False when it stopped because the lease is not trusted.
   */
  async reconcileWithRetry(): Promise<boolean> {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      if (!this.trade.mayTouchVenue()) {
        return false;
      }
      try {
        await this.reconcileMakerFills();
        return true;
      } catch (error) {
        this.trade.log.warn({ err: error, attempt }, 'could not read maker fills back');
        await sleep(200 * attempt);
      }
    }
    return true;
  }

  /**
   * Takes every maker order down and settles every one whose answer was lost,
   * retrying until the venue confirms (or the lease is gone); fills the venue
   * reported are read back on the way. For a pause (`untilConfirmed` false) a
   * halted venue, which refuses cancels and matches nothing, ends the attempt:
   * the order is taken down once the venue is back. A trade that ends keeps
   * trying: it must not leave an order that could fill unhedged. False when
   * it stopped because the lease is not trusted (the caller waits for it).
   */
  async pullMakerOrders(untilConfirmed = true): Promise<boolean> {
    const orders = this.trade.open?.makerOrders;
    if (!orders) {
      return true;
    }
    for (let attempt = 0; ; attempt += 1) {
      if (!this.trade.mayTouchVenue()) {
        return false;
      }
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
            this.trade.log.warn({ err: error }, 'could not read maker fills back'),
          );
          if (signOf(orders.ledger.uncounted()) > 0) {
            await sleep(backoff(attempt));
          }
          continue;
        case 'cancel':
          outcome = await orders.cancel(obligation.order);
          break;
        case 'quote':
          if (!obligation.current) {
            return true;
          }
          outcome = await orders.cancel(obligation.current);
          break;
      }
      if (outcome.kind === 'halted' && !untilConfirmed) {
        this.loop.handle(outcome);
        return true;
      }
      if (outcome.kind !== 'done') {
        await sleep(backoff(attempt));
      }
    }
  }

  /**
   * While a venue of the trade is halted, asks it every second whether it
   * takes requests again (the trade's open orders there: a request a halted
   * venue refuses). Once it answers, the trade resumes; its maker order comes
   * down first if it still rests.
   */
  async probeHaltedVenue(): Promise<void> {
    const trade = this.trade;
    const legs = trade.open?.legs;
    const halted = trade.venueHalt;
    if (!legs || !halted || !trade.mayTouchVenue()) {
      return;
    }
    const onMaker = halted.exchange === trade.record.makerExchange;
    const client = onMaker ? legs.makerClient : legs.hedgeClient;
    const symbol = (onMaker ? legs.market.makerMarket : legs.market.hedgeMarket).symbol;
    try {
      await paid(onMaker ? trade.budget.maker : trade.budget.hedge, client, () =>
        client.openOrders(symbol),
      );
    } catch (error) {
      if (!isVenueHalted(error)) {
        trade.log.warn({ err: error }, 'halted venue probe failed');
      }
      this.loop.wakeIn(HALTED_VENUE_PROBE_MS);
      return;
    }
    trade.log.info({ exchange: halted.exchange }, 'halted venue answers again; resuming');
    trade.venueAnswers();
    this.loop.stepAgain();
  }
}
