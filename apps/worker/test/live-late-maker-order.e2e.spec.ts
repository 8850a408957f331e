import { sleep } from '@sts/platform';
import { eventually } from './eventually';
import { sum } from './live-pairs';
import { SHORT_LEASE, WorkerHarness } from './worker-harness';

jest.setTimeout(150_000);

const PAIR = ['extended', 'hyperliquid'] as const;
/** How long the simulator holds the dead worker's maker placement before it executes. */
const PLACEMENT_HELD_MS = 14_000;
/**
 * The new worker's wait on Extended, which bounds no request: longer than
 * the placement is held, so the placement lands while the takeover still
 * watches the maker venue (and the whole spec stays short).
 */
const MAKER_BOUND_MS = 24_000;

/**
 * A takeover goes leg by leg (apps/worker/src/recovery/takeover.ts): here
 * the dead worker's first maker placement on Extended is held by the
 * simulator across the takeover and lands after the new worker has
 * reconciled on Hyperliquid's short bound. The new worker must cancel it,
 * and hedge what it filled before the cancel went through, once: the fill
 * reaches it on the stream, and the read at the maker bound must not count
 * it again. Judged by the simulator's records.
 */
describe('live takeover: a maker placement held across it lands late', () => {
  const harness = new WorkerHarness();

  // The dead lease passes 2 s after its last renewal, well before the held placement lands.
  beforeAll(async () => {
    await harness.start({ liveDialects: [...PAIR], workers: 0, env: SHORT_LEASE });
  });

  afterAll(() => harness.stop());

  it('is cancelled by the new owner, and what it filled first is hedged once, within seconds', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.liveTrader([...PAIR]);
    await harness.sim.loseNext('extended', {
      op: 'place',
      orderType: 'post_only',
      at: 'before',
      then: 'hang',
      hangMs: PLACEMENT_HELD_MS,
    });
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'extended',
      short_exchange: 'hyperliquid',
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
    });
    await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    await sleep(500); // the first placement is on its way, held by the venue
    await first.kill();
    const killedAtMs = Date.now();

    await harness.spawnWorker({ WORKER_UNBOUNDED_REQUEST_WAIT_MS: String(MAKER_BOUND_MS) });
    // The new worker's first cancel on Extended (the late order's) is held a moment, so an
    // outside taker reaches the late order first.
    await harness.sim.loseNext('extended', {
      op: 'cancel',
      at: 'before',
      then: 'hang',
      hangMs: 3_000,
    });
    const late = await harness.waitForRestingOrder(trader, 'extended', undefined, 40_000);
    const landedAfterKillMs = Date.now() - killedAtMs;
    await harness.takeFromMaker(late, '0.003');
    const filledAtMs = Date.now();

    let hedged = '0';
    await eventually(
      async () =>
        (hedged = sum(await harness.sim.fillsOf('hyperliquid', trader.wallet))) === '0.003',
      'the late fill hedged on hyperliquid',
      { timeoutMs: 10_000, intervalMs: 50, last: () => ({ hedged }) },
    );
    const fillToHedgeMs = Date.now() - filledAtMs;
    const dead = await eventually(
      async () =>
        (await harness.sim.accountOrders('extended', trader.wallet)).orders.find(
          (order) => order.order_id === late.orderId && order.status === 'canceled',
        ),
      'the late order canceled',
      { timeoutMs: 10_000 },
    );
    expect(dead.filled_size).toBe('0.003');

    const recovered = await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 60_000);
    const completed = recovered.find((event) => event.event_type === 'recovery_completed')!;
    const active = await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    expect(active.filled_size).toBe('0.003');
    console.log(
      `extended -> hyperliquid: late placement landed ${landedAfterKillMs} ms after the kill; ` +
        `its fill hedged in ${fillToHedgeMs} ms; recovery_completed ` +
        `${Date.parse(completed.created_at) - killedAtMs} ms after the kill`,
    );
    // Hedged as it came, not at the maker bound (24 s after the lease expired).
    expect(fillToHedgeMs).toBeLessThan(5_000);

    // The new owner quotes the rest with an order of its own; the maker fill is logged and hedged once.
    const own = await harness.waitForRestingOrder(
      trader,
      'extended',
      (order) => order.orderId !== late.orderId,
      20_000,
    );
    expect(own.size).toBe('0.007');
    await sleep(1_000);
    expect(sum(await harness.sim.fillsOf('hyperliquid', trader.wallet))).toBe('0.003');
    expect(sum(await harness.sim.fillsOf('extended', trader.wallet))).toBe('0.003');
    const events = await harness.events(trader, tradeId);
    const makerFills = events.filter((event) => event.event_type === 'maker_fill');
    expect(sum(makerFills.map((event) => ({ size: String(event.data.size) })))).toBe('0.003');

    await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    await harness.waitForStatus(trader, tradeId, 'canceled', 20_000);
  });
});
