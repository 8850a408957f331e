import Big from 'big.js';
import type { VenueOrder } from '@sts/venues';
import { eventually, WorkerHarness } from './worker-harness';
import { sleep } from '@sts/platform';

jest.setTimeout(60_000);

/** hyperliquid BTC (tick 1) against paradex BTC (tick 0.1): the coarser tick is 1. */
const TICK = new Big(1);

interface Touches {
  bid: Big;
  ask: Big;
  /** H for a long maker on hyperliquid: paradex's best bid. */
  hedgeReference: Big;
}

describe('quoting on the spread condition (long maker on hyperliquid, hedge on paradex)', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  const touches = async (): Promise<Touches> => {
    const maker = await harness.sim.book('hyperliquid', 'BTC', 1);
    const hedge = await harness.sim.book('paradex', 'BTC-USD-PERP', 1);
    return {
      bid: new Big(maker.bids[0][0]),
      ask: new Big(maker.asks[0][0]),
      hedgeReference: new Big(hedge.bids[0][0]),
    };
  };

  /** Requests the venue accepted from the trader's hyperliquid account so far. */
  const acceptedRequests = async (wallet: string): Promise<number> =>
    (await harness.sim.requestCounts('hyperliquid', wallet)).seconds.reduce(
      (sum, second) => sum + second.accepted,
      0,
    );

  /**
   * The price the maker bid moved to, watched on the public book so the wait
   * sends nothing on the trader's account. The order is the only bid of its
   * size (house levels are far larger).
   */
  const makerBidMoved = (
    first: VenueOrder,
    moved: (price: Big) => boolean,
    where: string,
  ): Promise<string> =>
    eventually(async () => {
      const book = await harness.sim.book('hyperliquid', 'BTC', 200);
      const level = book.bids.find(
        ([price, size]) => moved(new Big(price)) && new Big(size).eq(first.size),
      );
      return level?.[0];
    }, `the maker bid moved ${where}`);

  const toUsd = (value: Big, spreadType: string, h: Big): Big => {
    switch (spreadType) {
      case 'percentage':
        return value.times(h).div(100);
      case 'bps':
        return value.times(h).div(10_000);
      case 'ticks':
        return value.times(TICK);
      default:
        return value;
    }
  };

  /**
   * The resting price is valid (spread H - P meets the condition, P below the
   * ask) and the nearest valid price to the maker touch: one tick closer to
   * the touch is either past the touch or invalid.
   */
  const expectBestValidPrice = (
    order: VenueOrder,
    t: Touches,
    condition: string,
    targetUsd: Big,
  ) => {
    const price = new Big(order.price);
    const spread = (p: Big) => t.hedgeReference.minus(p);
    const meets = (p: Big) =>
      condition === 'gte' ? spread(p).gte(targetUsd) : spread(p).lte(targetUsd);
    expect(meets(price)).toBe(true);
    expect(price.lt(t.ask)).toBe(true);
    // Nearer the touch by one tick is invalid, unless the order already joins the touch.
    const nearer = condition === 'gte' ? price.plus(TICK) : price.minus(TICK);
    if (price.eq(t.bid)) {
      return;
    }
    expect(condition === 'gte' ? price.lt(t.bid) : price.gt(t.bid)).toBe(true);
    expect(meets(nearer)).toBe(false);
  };

  it('gte: rests below the touch at the highest price whose spread still reaches the target', async () => {
    const trader = await harness.trader();
    const t = await touches();
    const target = t.hedgeReference.minus(t.bid).plus('3.5');
    const tradeId = await harness.createTrade(trader, {
      target_spread: target.toFixed(),
      spread_condition: 'gte',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expectBestValidPrice(order, t, 'gte', target);
    expect(new Big(order.price).lt(t.bid)).toBe(true);
    await harness.cancelTrade(trader, tradeId);
  });

  it('lte: rests above the touch at the lowest price whose spread stays within the target', async () => {
    const trader = await harness.trader();
    const t = await touches();
    const target = t.hedgeReference.minus(t.bid).minus('4.5');
    const tradeId = await harness.createTrade(trader, {
      target_spread: target.toFixed(),
      spread_condition: 'lte',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expectBestValidPrice(order, t, 'lte', target);
    expect(new Big(order.price).gt(t.bid)).toBe(true);
    await harness.cancelTrade(trader, tradeId);
  });

  it.each([
    ['absolute', (usd: Big) => usd],
    ['percentage', (usd: Big, h: Big) => usd.times(100).div(h).round(8, Big.roundUp)],
    ['bps', (usd: Big, h: Big) => usd.times(10_000).div(h).round(6, Big.roundUp)],
    ['ticks', (usd: Big) => usd.div(TICK).round(0, Big.roundUp)],
  ])('spread_type %s: the target is read in its unit', async (spreadType, fromUsd) => {
    const trader = await harness.trader();
    const t = await touches();
    const targetUsd = t.hedgeReference.minus(t.bid).plus('6.3');
    const target = fromUsd(targetUsd, t.hedgeReference);
    const tradeId = await harness.createTrade(trader, {
      target_spread: target.toFixed(),
      spread_type: spreadType,
      spread_condition: 'gte',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expectBestValidPrice(order, t, 'gte', toUsd(target, spreadType, t.hedgeReference));
    await harness.cancelTrade(trader, tradeId);
  });

  it('default: follows the others down when its own bid is all that is left at the touch', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000' });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(first.price).toBe((await touches()).bid.toFixed());

    // The maker venue falls 1 bps (about 10 ticks, inside its spread): the house's bids step
    // down and the order stays alone at the old best bid, the public book's touch. Joining
    // that touch would be joining itself, and the falling market would run it over.
    await harness.sim.jumpVenue('hyperliquid', -1, 'BTC');
    const movedTo = await eventually(async () => {
      const [order] = await harness.openOrders(trader, 'hyperliquid');
      return order && new Big(order.price).lt(first.price) ? order.price : undefined;
    }, 'the maker bid moved down');
    // It joined the others' best bid: the touch, where the house rests beside it.
    const [touch] = (await harness.sim.book('hyperliquid', 'BTC', 1)).bids;
    expect(touch[0]).toBe(movedTo);
    expect(new Big(touch[1]).gt(first.size)).toBe(true);
    await harness.cancelTrade(trader, tradeId);
  });

  it('notional size: fills toward a USD target and reports filled_size in USD', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      size_type: 'notional',
      target_size: '1500',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    const price = new Big(order.price);
    // The order is the USD target at the quote price, floored to the coarser lot (0.00001).
    expect(order.size).toBe(new Big(1500).div(price).round(5, Big.roundDown).toFixed());
    await harness.takeFromMaker(order, order.size);
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done.size_type).toBe('notional');
    expect(done.filled_size).toBe(price.times(order.size).toFixed());
    // What stays unfilled is less than one lot's worth.
    expect(new Big(1500).minus(done.filled_size).lt(price.times('0.00001'))).toBe(true);
  });

  it('moves the resting order in one replace request when H moves', async () => {
    const trader = await harness.trader();
    const t = await touches();
    const target = t.hedgeReference.minus(t.bid).plus('40');
    const tradeId = await harness.createTrade(trader, {
      target_spread: target.toFixed(),
      spread_condition: 'gte',
    });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    const accepted = (): Promise<number> => acceptedRequests(trader.wallet);
    const before = await accepted();
    // H (paradex's best bid) rises 3 bps: the highest valid maker price rises with it.
    await harness.sim.jumpVenue('paradex', 3, 'BTC-USD-PERP');
    const movedTo = await makerBidMoved(first, (price) => price.gt(first.price), 'up');
    expect(await accepted()).toBe(before + 1);
    const open = await harness.openOrders(trader, 'hyperliquid');
    expect(open).toHaveLength(1);
    expect(open[0].orderId).not.toBe(first.orderId);
    expect(open[0].price).toBe(movedTo);
    await harness.cancelTrade(trader, tradeId);
  });

  it('aggressive: stays a tick from crossing while H moves within the condition, pulls back once it does not', async () => {
    const trader = await harness.trader();
    const t = await touches();
    // A tick from crossing the spread is 10 USD better than the target.
    const touchPrice = t.ask.minus(TICK);
    const target = t.hedgeReference.minus(touchPrice).minus(10);
    const tradeId = await harness.createTrade(trader, {
      target_spread: target.toFixed(),
      spread_condition: 'gte',
      quote_mode: 'aggressive',
      fast_move_guard: 'off',
    });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(first.price).toBe(touchPrice.toFixed());
    const accepted = (): Promise<number> => acceptedRequests(trader.wallet);
    const before = await accepted();

    // H rises 3 bps, then falls back 2: the spread at the touch price only grew.
    await harness.sim.jumpVenue('paradex', 3, 'BTC-USD-PERP');
    await harness.sim.jumpVenue('paradex', -2, 'BTC-USD-PERP');
    await sleep(300);
    expect(await accepted()).toBe(before);

    // H falls 5 bps more (about 50 USD): the touch price would miss the target by about 40.
    await harness.sim.jumpVenue('paradex', -5, 'BTC-USD-PERP');
    const fallen = (await touches()).hedgeReference;
    expect(fallen.minus(touchPrice).lt(target)).toBe(true);
    const movedTo = await makerBidMoved(first, (price) => price.lt(first.price), 'back');
    // The highest price that still reaches the target at the new H.
    expect(movedTo).toBe(fallen.minus(target).round(0, Big.roundDown).toFixed());
    await harness.cancelTrade(trader, tradeId);
  });

  it('fast-move guard on: a fast fall of H cancels the resting order, holds, then quotes again', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_spread: '-1000',
      quote_mode: 'aggressive',
      fast_move_guard: 'on',
      fast_move_guard_bps: 5,
      fast_move_window_ms: 250,
      fast_move_settle_ms: 500,
    });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');

    // H (paradex's best bid, for a long maker) falls 20 bps at once.
    await harness.sim.jumpVenue('paradex', -20, 'BTC-USD-PERP');
    const events = await harness.waitForEvent(trader, tradeId, 'fast_move_guard');
    const trigger = events.find((e) => e.event_type === 'fast_move_guard')!.data;
    expect(trigger).toMatchObject({
      threshold: 5,
      action: 'cancel_and_hold',
      references: { window_ms: 250 },
    });
    expect(trigger.move).toBeGreaterThanOrEqual(5);
    expect(new Big(trigger.references.to).lt(trigger.references.from)).toBe(true);
    // The order comes down, and a new one rests once the book has been calm for settle_ms.
    const next = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.orderId !== first.orderId,
    );
    expect(next.clientOrderId).not.toBe(first.clientOrderId);
    expect(
      (await harness.openOrders(trader, 'hyperliquid')).some((o) => o.orderId === first.orderId),
    ).toBe(false);

    await harness.cancelTrade(trader, tradeId);
    const ended = await harness.trade(trader, tradeId);
    expect(ended.fast_move_guard_stats).toMatchObject({
      mode: 'on',
      triggers: 1,
      holds: 1,
      orders_canceled: 1,
    });
  });
});
