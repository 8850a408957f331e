import Big from 'big.js';
import { eventually } from './eventually';
import { WorkerHarness, type Trader, type TradeEventView } from './worker-harness';

jest.setTimeout(150_000);

/** Every venue here is live (ccxt) against its dialect: no paper client is involved. */
const LIVE = ['hyperliquid', 'aster', 'extended'];
/** Extended against each of the venues already proven, each way round: [maker, hedge]. */
const PAIRS: Array<[string, string]> = [
  ['extended', 'hyperliquid'],
  ['hyperliquid', 'extended'],
  ['extended', 'aster'],
  ['aster', 'extended'],
];

const sum = (fills: Array<{ size: string }>): string =>
  fills.reduce((total, fill) => total.plus(fill.size), new Big(0)).toFixed();

/**
 * Extended on the live path end to end: each order carries a StarkEx
 * settlement signed with the account's stark key (checked by the dialect),
 * and the venue answers a placement with the order's ids only. Trades go
 * through the public HTTP API; the truth is the simulator's own records.
 */
describe('Extended live through ccxt, against its dialect', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: LIVE, workers: 0 });
  });

  afterAll(() => harness.stop());

  const createTrade = (
    trader: Trader,
    maker: string,
    hedge: string,
    overrides: Record<string, unknown> = {},
  ): Promise<string> =>
    harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: maker,
      short_exchange: hedge,
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
      ...overrides,
    });

  const hedgedAsMade = async (
    trader: Trader,
    maker: string,
    hedge: string,
    size: string,
  ): Promise<void> => {
    let hedged = '0';
    await eventually(
      async () => (hedged = sum(await harness.sim.fillsOf(hedge, trader.wallet))) === size,
      `${size} sold on ${hedge}`,
      { last: () => ({ hedged, made: size }) },
    );
    const makerFills = await harness.sim.fillsOf(maker, trader.wallet);
    expect(sum(makerFills)).toBe(size);
    expect(makerFills.every((fill) => fill.side === 'buy' && fill.liquidity === 'maker')).toBe(
      true,
    );
    const hedgeFills = await harness.sim.fillsOf(hedge, trader.wallet);
    expect(hedgeFills.every((fill) => fill.side === 'sell' && fill.liquidity === 'taker')).toBe(
      true,
    );
  };

  describe('one worker', () => {
    beforeAll(async () => {
      await harness.addWorker();
    });

    afterAll(async () => {
      for (const worker of harness.workers.splice(0)) await worker.close();
    });

    for (const [maker, hedge] of PAIRS) {
      it(`maker on ${maker}, hedge on ${hedge}: runs to completed with every fill hedged`, async () => {
        const trader = await harness.liveTrader([maker, hedge]);
        const tradeId = await createTrade(trader, maker, hedge);
        await harness.waitForStatus(trader, tradeId, 'active', 20_000);
        const order = await harness.waitForRestingOrder(trader, maker);
        expect(order).toMatchObject({ side: 'buy', size: '0.01' });

        await harness.takeFromMaker(order, '0.004');
        await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 15_000);
        const rest = await harness.waitForRestingOrder(
          trader,
          maker,
          (resting) => resting.orderId !== order.orderId || resting.filledSize === '0.004',
        );
        await harness.takeFromMaker(rest, new Big(rest.size).minus(rest.filledSize).toFixed());
        const done = await harness.waitForStatus(trader, tradeId, 'completed', 20_000);
        expect(done.filled_size).toBe('0.01');

        const events: TradeEventView[] = await harness.events(trader, tradeId);
        const outcomes = events.filter((e) => e.event_type === 'hedge_outcome').map((e) => e.data);
        expect(outcomes.every((outcome) => outcome.result === 'filled')).toBe(true);
        expect(sum(outcomes.map((outcome) => ({ size: outcome.filled_size })))).toBe('0.01');
        // Each maker fill logged once.
        const makerFills = events.filter((e) => e.event_type === 'maker_fill');
        expect(sum(makerFills.map((e) => ({ size: String(e.data.size) })))).toBe('0.01');
        await hedgedAsMade(trader, maker, hedge, '0.01');
      });
    }
  });

  it('kill -9 during live trades: another worker recovers, hedged size equals maker fill size', async () => {
    const first = await harness.spawnWorker();
    const pairs: Array<[string, string]> = [
      ['extended', 'hyperliquid'],
      ['aster', 'extended'],
    ];
    const traders = await Promise.all(pairs.map((pair) => harness.liveTrader(pair)));
    // Each on its own market: one trade's hedge must not trade with the other's maker order.
    const terms = [
      { market: 'BTC', target_size: '0.01', take: '0.004' },
      { market: 'ETH', target_size: '0.1', take: '0.04' },
    ];
    const trades = await Promise.all(
      pairs.map(([maker, hedge], i) =>
        createTrade(traders[i], maker, hedge, {
          market: terms[i].market,
          target_size: terms[i].target_size,
        }),
      ),
    );
    const orders = await Promise.all(
      pairs.map(([maker], i) => harness.waitForRestingOrder(traders[i], maker)),
    );
    // The first trade's hedge venue refuses while the worker dies: its fill is unhedged at the kill.
    await harness.sim.rejectNext('hyperliquid', 10_000, 'injected_rejection');
    await Promise.all(orders.map((order, i) => harness.takeFromMaker(order, terms[i].take)));
    await harness.waitForEvent(traders[0], trades[0], 'hedge_sent', 1, 15_000);
    await first.kill();
    await harness.sim.rejectNext('hyperliquid', 0);

    await harness.spawnWorker();
    for (const [i, [maker, hedge]] of pairs.entries()) {
      await harness.waitForEvent(traders[i], trades[i], 'recovery_completed', 1, 90_000);
      const active = await harness.waitForStatus(traders[i], trades[i], 'active', 20_000);
      expect(active.filled_size).toBe(terms[i].take);
      await hedgedAsMade(traders[i], maker, hedge, terms[i].take);
    }
    for (const [i] of pairs.entries()) {
      await harness.gateway.request('DELETE', `/api/v1/trades/${trades[i]}`, {
        headers: traders[i].headers,
      });
      await harness.waitForStatus(traders[i], trades[i], 'canceled', 20_000);
    }
  });
});
