import Big from 'big.js';
import { eventually } from './eventually';
import { SHORT_LEASE, WorkerHarness, type TradeEventView } from './worker-harness';
import { sleep } from '@sts/platform';

jest.setTimeout(90_000);

const sum = (fills: Array<{ size: string }>): string =>
  fills.reduce((total, fill) => total.plus(fill.size), new Big(0)).toFixed();

const expectGapless = (events: TradeEventView[]): void => {
  expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));
};

describe('a worker that dies, a worker that stops', () => {
  const harness = new WorkerHarness();

  // Takeovers bounded from the kill: a dead worker's lease passes 2 s after its last renewal.
  beforeAll(async () => {
    await harness.start({ workers: 0, env: SHORT_LEASE });
  });

  afterEach(() => harness.stopWorkers());

  afterAll(() => harness.stop());

  it('kill -9 with a fill unhedged: another worker recovers it, hedges the fill and quotes on', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');

    // The hedge venue refuses every order (a refusal, not a halt, which would pause the
    // trade and take its maker order down): the fill stays unhedged while the worker retries.
    await harness.sim.rejectNext('paradex', 10_000, 'injected_rejection');
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_sent');
    await first.kill();
    await harness.sim.rejectNext('paradex', 0);
    // What the dead worker left on the book is what the recovery must take off it: its
    // maker order, unless a hedge answer slower than 250 ms (a loaded machine) put the
    // hedge in doubt and had the worker pull it first.
    const leftResting = (
      await harness.sim.accountOrders('hyperliquid', trader.wallet, { status: 'open' })
    ).orders.length;
    expect(await harness.sim.fillsOf('paradex', trader.wallet)).toEqual([]);

    const second = await harness.spawnWorker();
    await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 15_000);
    const active = await harness.waitForStatus(trader, tradeId, 'active');
    expect(active.filled_size).toBe('0.004');

    const events = await harness.events(trader, tradeId);
    expectGapless(events);
    const recovery = events.find((event) => event.event_type === 'recovery_completed')!;
    expect(recovery.worker_id).toBe(second.workerId);
    expect(recovery.data).toEqual({
      previous_worker_id: first.workerId,
      open_orders_canceled: leftResting,
      fills_reconciled: 0,
      rehedged_size: '0.004',
    });
    const dead = (await harness.sim.accountOrders('hyperliquid', trader.wallet)).orders.find(
      (venueOrder) => venueOrder.order_id === order.orderId,
    );
    expect(dead?.status).toBe('canceled');
    const byWorker = new Set(events.map((event) => event.worker_id));
    expect(byWorker).toEqual(new Set([first.workerId, second.workerId]));
    // The venues agree: what the maker bought, the hedge sold.
    await eventually(
      async () => sum(await harness.sim.fillsOf('paradex', trader.wallet)) === '0.004',
      'the re-hedge on paradex',
    );
    expect(sum(await harness.sim.fillsOf('hyperliquid', trader.wallet))).toBe('0.004');
    // Recovery is not shown as a status change; quoting resumed with a new order for the rest.
    expect(harness.lifecycleOf(tradeId)).toEqual(['trade.started', 'trade.resumed']);
    const next = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(next.size).toBe('0.006');
    expect(next.clientOrderId).not.toBe(order.clientOrderId);

    await harness.takeFromMaker(next, '0.006');
    await harness.waitForStatus(trader, tradeId, 'completed');
    expect(sum(await harness.sim.fillsOf('paradex', trader.wallet))).toBe('0.01');
    await second.kill();
  });

  it('kill -9 with a placement still on its way: the new worker outwaits it, so one maker order rests', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.trader();
    // The dead worker's first placement is held at the venue 4.5 s (within its 5 s lifetime).
    await harness.sim.loseNext('hyperliquid', {
      op: 'place',
      wallet: trader.wallet,
      at: 'before',
      then: 'hang',
      hangMs: 4_500,
    });
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    // The placement has reached the venue (the rule took it): the worker dies now.
    await eventually(async () => {
      const { venues } = (await harness.sim.state()) as {
        venues: Array<{ id: string; lose_next: unknown[] }>;
      };
      return venues.find((venue) => venue.id === 'hyperliquid')?.lose_next.length === 0;
    }, 'the dead worker placement held at the venue');
    await first.kill();

    const second = await harness.spawnWorker();
    await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 20_000);
    // However the held placement and the new worker's own order meet, one order rests.
    let mostResting = 0;
    const watchUntil = Date.now() + 3_000;
    while (Date.now() < watchUntil) {
      const open = (
        await harness.sim.accountOrders('hyperliquid', trader.wallet, { status: 'open' })
      ).orders;
      mostResting = Math.max(mostResting, open.length);
      await sleep(50);
    }
    expect(mostResting).toBe(1);
    const [resting] = await harness.openOrders(trader, 'hyperliquid');
    expect(resting.size).toBe('0.01');
    await harness.takeFromMaker(resting, '0.01');
    await harness.waitForStatus(trader, tradeId, 'completed');
    expect(sum(await harness.sim.fillsOf('hyperliquid', trader.wallet))).toBe('0.01');
    await second.kill();
  });

  it('SIGTERM hands the trade over: the next worker resumes it from its log, logging recovery_completed (cause handover)', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.003');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    const before = await harness.events(trader, tradeId);

    const second = await harness.addWorker();
    expect(await first.stop()).toBe(0);
    await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 10_000);
    const next = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.orderId !== order.orderId,
    );
    expect(next.size).toBe('0.007');
    await harness.takeFromMaker(next, '0.007');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done.filled_size).toBe('0.01');

    const events = await harness.events(trader, tradeId);
    expectGapless(events);
    // The first worker's entries, then the second worker's, opened by the hand-over.
    expect(events.slice(0, before.length)).toEqual(before);
    expect(before.every((event) => event.worker_id === first.workerId)).toBe(true);
    const handoverAt = events.findIndex((event) => event.event_type === 'recovery_completed');
    const lastOfFirst = events.slice(before.length, handoverAt);
    expect(lastOfFirst.every((event) => event.worker_id === first.workerId)).toBe(true);
    // Its quoting since the fill, logged as it let go: at least the order it took down to hand over.
    const spells = lastOfFirst.filter((event) => event.event_type === 'quoting');
    expect(spells).toHaveLength(1);
    expect(spells[0].data).toMatchObject({ exchange: 'hyperliquid', side: 'buy' });
    expect(spells[0].data.canceled).toBeGreaterThanOrEqual(1);
    expect(spells[0].data.quoted_ms).toBeGreaterThan(0);
    const handover = events[handoverAt];
    expect(handover).toMatchObject({
      event_type: 'recovery_completed',
      worker_id: second.workerId,
    });
    expect(handover.data).toEqual({
      previous_worker_id: first.workerId,
      open_orders_canceled: 0,
      fills_reconciled: 0,
      rehedged_size: '0',
      cause: 'handover',
    });
    expect(events.filter((event) => event.event_type === 'recovery_completed')).toHaveLength(1);
    expect(events.slice(handoverAt).every((event) => event.worker_id === second.workerId)).toBe(
      true,
    );
    const [row] = await harness.gateway.query(`SELECT lease_epoch FROM trades WHERE id = $1`, [
      tradeId,
    ]);
    expect(row.lease_epoch).toBe('2');
    // A hand-over is no status change: no recovering, no trade.resumed.
    expect(harness.lifecycleOf(tradeId)).toEqual(['trade.started', 'trade.completed']);
    expect(sum(await harness.sim.fillsOf('paradex', trader.wallet))).toBe('0.01');
  });
});
