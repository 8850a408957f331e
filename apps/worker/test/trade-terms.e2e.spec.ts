import Big from 'big.js';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(60_000);

interface MarketEntry {
  symbol: string;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional?: string;
}

/**
 * Issue 35's untested rows on a trade's terms, judged by the venue
 * simulator's records: an amended max_slippage bounds the next hedge IOC's
 * limit (decisions 2: H * (1 - max_slippage) for a sell, to the tick toward
 * H), and a target below the smallest order both venues accept is rejected
 * in pre-flight. Maker on hyperliquid (long), hedge on paradex, BTC.
 */
describe("a trade's terms on the venues", () => {
  const harness = new WorkerHarness();
  let btc: Record<string, MarketEntry>;

  beforeAll(async () => {
    await harness.start();
    const markets = await harness.gateway.request(
      'GET',
      '/api/v1/markets?exchanges=hyperliquid,paradex',
    );
    btc = markets.body.markets.find((m: { canonical: string }) => m.canonical === 'BTC').exchanges;
  });

  afterAll(() => harness.stop());

  /** H for a long maker: paradex's best bid, as the venue shows it. */
  const hedgeReference = async (): Promise<Big> =>
    new Big((await harness.sim.book('paradex', btc['paradex'].symbol, 1)).bids[0][0]);

  /** The hedge IOCs the trader sent to paradex, oldest first, as the venue recorded them. */
  const hedgeIocs = async (trader: Trader) =>
    (await harness.sim.accountOrders('paradex', trader.wallet)).orders.filter(
      (order) => order.type === 'ioc',
    );

  /** decisions 2: a sell hedge's limit, H * (1 - max_slippage) rounded up to the tick. */
  const sellLimit = (h: Big, maxSlippage: string): string => {
    const tick = new Big(btc['paradex'].tick_size);
    return h
      .times(new Big(1).minus(maxSlippage))
      .div(tick)
      .round(0, Big.roundUp)
      .times(tick)
      .toFixed();
  };

  it('an amended max_slippage bounds the limit price of the next hedge IOC', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
      max_slippage: '0.001',
    });

    const first = await harness.waitForRestingOrder(trader, 'hyperliquid');
    const h1 = await hedgeReference();
    await harness.takeFromMaker(first, '0.002');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1);
    const [before] = await hedgeIocs(trader);
    expect(before).toMatchObject({ side: 'sell', size: '0.002', price: sellLimit(h1, '0.001') });

    const amended = await harness.gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
      body: { max_slippage: '0.015' },
    });
    expect(amended.status).toBe(200);
    expect((await harness.trade(trader, tradeId)).max_slippage).toBe('0.015');

    // The first order rests on with what is left of it.
    const second = await harness.waitForRestingOrder(trader, 'hyperliquid');
    const h2 = await hedgeReference();
    await harness.takeFromMaker(second, '0.003');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 2);
    const iocs = await hedgeIocs(trader);
    expect(iocs).toHaveLength(2);
    expect(iocs[1]).toMatchObject({ side: 'sell', size: '0.003', price: sellLimit(h2, '0.015') });
    // The wider bound lowered the limit by about 1.4 % of H; the fills stayed within it.
    expect(new Big(iocs[1].price).lt(before.price)).toBe(true);
    for (const fill of await harness.sim.fillsOf('paradex', trader.wallet)) {
      const limit = fill.order_id === iocs[1].order_id ? iocs[1].price : before.price;
      expect(new Big(fill.price).gte(limit)).toBe(true);
    }
    await harness.cancelTrade(trader, tradeId);
  });

  describe('pre-flight: the smallest order both venues accept', () => {
    /**
     * The smallest maker order both venues take at the current prices: each
     * venue's min_size and min_notional, in whole lots of the coarser lot.
     */
    const smallestOrder = async (): Promise<Big> => {
      const book = await harness.sim.book('hyperliquid', btc['hyperliquid'].symbol, 1);
      const price = new Big(book.bids[0][0]);
      const largest = (values: Big[]): Big => values.reduce((a, b) => (a.gte(b) ? a : b));
      const entries = [btc['hyperliquid'], btc['paradex']];
      const lot = largest(entries.map((entry) => new Big(entry.lot_size)));
      const smallest = largest(
        entries.flatMap((entry) => [
          new Big(entry.min_size),
          new Big(entry.min_notional ?? 0).div(price),
        ]),
      );
      return smallest.div(lot).round(0, Big.roundUp).times(lot);
    };

    it('rejects a target below it, with failure_reason; a target above it runs', async () => {
      const smallest = await smallestOrder();
      const trader = await harness.trader();

      const below = smallest.div(2).round(5, Big.roundDown).toFixed();
      const tooSmall = await harness.createTrade(trader, {
        target_size: below,
        target_spread: '-1000',
      });
      const rejected = await harness.waitForStatus(trader, tooSmall, 'rejected');
      expect(rejected.failure_reason).toBe(
        `target_size ${below} is below the smallest order both venues accept`,
      );
      expect(rejected.filled_size).toBe('0');
      expect(await harness.sim.accountOrders('hyperliquid', trader.wallet)).toEqual({
        orders: [],
      });

      // In USD the same rule: half the smallest order's value is too little.
      const usdBelow = smallest
        .times((await hedgeReference()).div(2))
        .round(0)
        .toFixed();
      const tooSmallUsd = await harness.createTrade(trader, {
        target_size: usdBelow,
        size_type: 'notional',
        target_spread: '-1000',
      });
      expect((await harness.waitForStatus(trader, tooSmallUsd, 'rejected')).failure_reason).toBe(
        `target_size ${usdBelow} is below the smallest order both venues accept`,
      );

      const enough = smallest.times('1.5').round(5, Big.roundUp).toFixed();
      const runs = await harness.createTrade(trader, {
        target_size: enough,
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, runs, 'active');
      const order = await harness.waitForRestingOrder(trader, 'hyperliquid');
      expect(order.size).toBe(enough);
      await harness.cancelTrade(trader, runs);
    });
  });
});
