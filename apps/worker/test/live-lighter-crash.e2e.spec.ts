import { eventually } from './eventually';
import { expectHedgedAsMade, sum } from './live-pairs';
import { KILLED_WORKERS_REQUESTS_GONE, SHORT_LEASE, WorkerHarness } from './worker-harness';
import { sleep } from '@sts/platform';

jest.setTimeout(150_000);

/**
 * Lighter keeps a 48-bit integer of our 128-bit client order ids, so a worker
 * that takes over a trade cannot read the dead worker's Lighter orders back
 * as our ids: it reads the part Lighter keeps (the trade and the kind, a
 * partial id). Here the dead worker's hedge on Lighter executed on the venue
 * but its answer never arrived before the kill: nothing logged it. The worker
 * that takes over must find that hedge fill as the trade's own, or it would
 * hedge the maker fill a second time.
 */
describe('Lighter live: a hedge executed but unanswered when the worker dies', () => {
  const harness = new WorkerHarness();

  // The dead worker's lease passes 2 s after its last renewal, for the takeover to come soon.
  beforeAll(async () => {
    await harness.start({ liveDialects: ['hyperliquid', 'lighter'], workers: 0, env: SHORT_LEASE });
  });

  afterAll(() => harness.stop());

  it('is found by the worker that takes over, and the maker fill is hedged once', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.liveTrader(['hyperliquid', 'lighter']);
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'lighter',
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForNewWorkersOrder(trader, 'hyperliquid');
    // The next IOC on Lighter executes, and its answer is held (the worker waits on it).
    await harness.sim.loseNext('lighter', {
      op: 'place',
      orderType: 'ioc',
      at: 'after',
      then: 'hang',
      hangMs: 60_000,
    });
    await harness.takeFromMaker(order, '0.004');
    let hedged = '0';
    await eventually(
      async () => (hedged = sum(await harness.sim.fillsOf('lighter', trader.wallet))) === '0.004',
      'the hedge filled on lighter',
      { last: () => ({ hedged }) },
    );
    await first.kill();

    await harness.spawnWorker(KILLED_WORKERS_REQUESTS_GONE);
    await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 90_000);
    const active = await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    expect(active.filled_size).toBe('0.004');
    await expectHedgedAsMade(harness, trader, ['hyperliquid', 'lighter'], '0.004');
    // Still hedged once a while later: no second hedge of the same fill.
    await sleep(2_000);
    expect(sum(await harness.sim.fillsOf('lighter', trader.wallet))).toBe('0.004');
    await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    await harness.waitForStatus(trader, tradeId, 'canceled', 20_000);
  });
});
