import Big from 'big.js';
import { expectHedgedAsMade, longestUnhedgedMs, sum } from './live-pairs';
import {
  SHORT_LEASE,
  takeoverBoundMs,
  WorkerHarness,
  type Trader,
  type TradeEventView,
} from './worker-harness';

jest.setTimeout(150_000);

/** The venues the trades run between, each way round. */
const VENUES = ['hyperliquid', 'aster'];
/** Both in live mode (ccxt) against their dialects: no paper client is involved. */
const LIVE = VENUES;
const SYMBOL: Record<string, string> = { hyperliquid: 'BTC', aster: 'BTCUSDT' };

/**
 * The live path end to end: the LIVE venues in live mode (the ccxt client,
 * the unmodified pro classes) pointed at the simulator's dialects of their
 * own protocols, trading against the other venue each way round. Trades go
 * through the public HTTP API; the truth is the simulator's own records.
 */
describe('live venues through ccxt, against their dialects', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: LIVE, workers: 0 });
  });

  afterAll(() => harness.stop());

  /** Creates a trade with the maker (long) on `maker` and the hedge (short) on the other venue. */
  const createTrade = async (trader: Trader, maker: string, overrides = {}): Promise<string> => {
    const hedge = maker === 'hyperliquid' ? 'aster' : 'hyperliquid';
    return harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: maker,
      short_exchange: hedge,
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
      ...overrides,
    });
  };

  const hedgedAsMade = (trader: Trader, maker: string, size: string): Promise<void> =>
    expectHedgedAsMade(
      harness,
      trader,
      [maker, maker === 'hyperliquid' ? 'aster' : 'hyperliquid'],
      size,
    );

  describe('one worker', () => {
    beforeAll(async () => {
      await harness.addWorker();
    });

    afterAll(async () => {
      for (const worker of harness.workers.splice(0)) {
        await worker.close();
      }
    });

    for (const maker of VENUES) {
      it(`maker on ${maker}, hedge on the other: runs to completed with every fill hedged`, async () => {
        const trader = await harness.liveTrader(VENUES);
        const tradeId = await createTrade(trader, maker);
        await harness.waitForStatus(trader, tradeId, 'active', 20_000);
        const order = await harness.waitForRestingOrder(trader, maker);
        expect(order).toMatchObject({ side: 'buy', size: '0.01', symbol: SYMBOL[maker] });

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
        expect(harness.closingEvent(events).data).toMatchObject({
          filled_size: '0.01',
          reason: 'target_reached',
          residual_unhedged: '0',
        });
        await hedgedAsMade(trader, maker, '0.01');
      });
    }

    for (const maker of VENUES) {
      const hedge = maker === 'hyperliquid' ? 'aster' : 'hyperliquid';
      it(`a hedge refused twice by ${hedge}, then filled`, async () => {
        const trader = await harness.liveTrader(VENUES);
        const tradeId = await createTrade(trader, maker, { target_size: '0.003' });
        const order = await harness.waitForRestingOrder(trader, maker);
        await harness.sim.rejectNext(hedge, 2, 'injected_rejection');
        await harness.takeFromMaker(order, '0.003');
        await harness.waitForStatus(trader, tradeId, 'completed', 20_000);

        const events = await harness.events(trader, tradeId);
        const sent = events.filter((e) => e.event_type === 'hedge_sent').map((e) => e.data);
        expect(sent.map((data) => data.attempt)).toEqual([1, 2, 3]);
        expect(events.filter((e) => e.event_type === 'hedge_outcome').map((e) => e.data)).toEqual([
          expect.objectContaining({ result: 'filled', attempts: 3, filled_size: '0.003' }),
        ]);
        await hedgedAsMade(trader, maker, '0.003');
      });
    }

    for (const venue of LIVE) {
      it(`pre-flight on ${venue}: a key the venue does not know rejects the trade with its answer`, async () => {
        const trader = await harness.liveTrader(VENUES);
        // The wallet's credential replaced by one whose key was never funded nor approved.
        await harness.gateway.ops(
          'credentials',
          'add',
          '--user',
          trader.userId,
          '--exchange',
          venue,
          '--wallet',
          trader.wallet,
          '--api-key',
          '0x00000000000000000000000000000000000000aa',
          '--api-secret',
          `0x${'ab'.repeat(32)}`,
        );
        const tradeId = await createTrade(trader, venue);
        const rejected = await harness.waitForStatus(trader, tradeId, 'rejected', 20_000);
        expect(rejected.failure_reason).toContain(`${venue} rejected the credentials: `);
        if (venue === 'hyperliquid') {
          expect(rejected.failure_reason).toMatch(
            /User or API Wallet 0x[0-9a-f]{40} does not exist\./,
          );
        }
        expect(await harness.sim.accountOrders(venue, trader.wallet)).toEqual({ orders: [] });
      });
    }
  });

  it('the service never sent a builder, a fee rate, a referrer or a builder approval to Hyperliquid', async () => {
    const response = await fetch(`${harness.sim.url}/dialects/hyperliquid/_sim/actions`);
    const { actions } = (await response.json()) as {
      actions: Array<{ action: Record<string, unknown> }>;
    };
    const orders = actions.filter(({ action }) => action['type'] === 'order');
    // The trades above placed makers and hedges there, so the log has something to judge.
    expect(orders.length).toBeGreaterThanOrEqual(3);
    for (const { action } of actions) {
      expect(action['type']).not.toMatch(/^(approveBuilderFee|setReferrer)$/);
      expect(Object.keys(action)).not.toContain('builder');
    }
  });

  it('the service never sent a builder, a fee rate, a referrer or a builder approval to Aster', async () => {
    const response = await fetch(`${harness.sim.url}/dialects/aster/_sim/requests`);
    const { requests } = (await response.json()) as {
      requests: Array<{ path: string; params: Record<string, string> }>;
    };
    const orders = requests.filter((request) => /\/order$/.test(request.path));
    // The trades above placed orders, so the log has something to judge.
    expect(orders.length).toBeGreaterThan(5);
    for (const request of requests) {
      expect(request.path).not.toMatch(/builder/i);
      expect(Object.keys(request.params)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(builder|feeRate|referrer|ref)$/)]),
      );
    }
  });

  it('kill -9 during live trades: another worker recovers, hedged size equals maker fill size', async () => {
    // Both on the short lease: the dead worker's trades pass 2 s after its last renewal.
    const first = await harness.spawnWorker(SHORT_LEASE);
    const traders = await Promise.all(VENUES.map(() => harness.liveTrader(VENUES)));
    // Each on its own market: one trade's hedge must not trade with the other's maker order.
    const trades = await Promise.all(
      VENUES.map((maker, i) =>
        createTrade(traders[i], maker, { target_size: '0.01', market: i === 0 ? 'BTC' : 'ETH' }),
      ),
    );
    const orders = await Promise.all(
      VENUES.map((maker, i) => harness.waitForNewWorkersOrder(traders[i], maker)),
    );
    // One trade's hedge venue refuses while the worker dies: its fill is unhedged at the kill.
    await harness.sim.rejectNext('aster', 10_000, 'injected_rejection');
    await Promise.all(orders.map((order) => harness.takeFromMaker(order, '0.004')));
    await harness.waitForEvent(traders[0], trades[0], 'hedge_sent', 1, 15_000);
    await first.kill();
    const killedAtMs = Date.now();
    await harness.sim.rejectNext('aster', 0);

    await harness.spawnWorker(SHORT_LEASE);
    const startedAfterKillMs = Date.now() - killedAtMs;
    for (const [i, maker] of VENUES.entries()) {
      const recovered = (
        await harness.waitForEvent(traders[i], trades[i], 'recovery_completed', 1, 90_000)
      ).find((event) => event.event_type === 'recovery_completed')!;
      const active = await harness.waitForStatus(traders[i], trades[i], 'active', 20_000);
      expect(active.filled_size).toBe('0.004');
      await hedgedAsMade(traders[i], maker, '0.004');
      const events = await harness.events(traders[i], trades[i]);
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, n) => n + 1));
      // Both venues' order requests expire (issue 33): a takeover waits their life, not a minute:
      // up to a lease (5 s) for the dead lease to lapse, Aster's 10.25 s, a 1 s scan, the reads,
      // 16.25 s and the reads in all. The new worker starts inside that window too, and on a
      // slow 2-core machine under four spec files it took 24.1 s once: 25 s still fails a
      // takeover that waits the unbounded-request fallback (a minute; this worker keeps it).
      const takeoverMs = Date.parse(recovered.created_at) - killedAtMs;
      const hedge = maker === 'hyperliquid' ? 'aster' : 'hyperliquid';
      const unhedgedMs = await longestUnhedgedMs(harness, traders[i], [maker, hedge]);
      console.log(
        `maker on ${maker}: kill to recovery_completed ${takeoverMs} ms; longest unhedged ${unhedgedMs} ms`,
      );
      expect(takeoverMs).toBeLessThanOrEqual(takeoverBoundMs(25_000, startedAfterKillMs));
    }
    for (const [i] of VENUES.entries()) {
      await harness.gateway.request('DELETE', `/api/v1/trades/${trades[i]}`, {
        headers: traders[i].headers,
      });
      await harness.waitForStatus(traders[i], trades[i], 'canceled', 20_000);
    }
  });
});
