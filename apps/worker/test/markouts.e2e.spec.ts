import Big from 'big.js';
import { markoutBps } from '@sts/domain';
import { eventually } from './eventually';
import { SHORT_LEASE, WorkerHarness, type TradeEventView } from './worker-harness';

jest.setTimeout(120_000);

const markoutsOf = (events: TradeEventView[]): Array<Record<string, unknown>> =>
  events
    .filter((event) => event.event_type === 'markout')
    .map((event) => ({ ...(event.data as Record<string, unknown>), worker_id: event.worker_id }));

/**
 * Maker fills marked out from the book the worker holds: the maker venue's
 * mid 1, 10 and 60 s after each fill, logged as `markout` entries. The
 * simulator's book only moves when a spec moves it, so its mid at the mark
 * is the mid the spec reads afterwards.
 */
describe('markouts', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ workers: 0, env: SHORT_LEASE });
  });

  afterEach(() => harness.stopWorkers());

  afterAll(() => harness.stop());

  it('logs the maker mid 1 and 10 s after a fill, signed good for the trader', async () => {
    await harness.addWorker();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.003');
    const events = await harness.waitForEvent(trader, tradeId, 'markout', 2, 15_000);
    const [fill] = events.filter((event) => event.event_type === 'maker_fill');
    const book = await harness.sim.book(order.exchange, order.symbol, 1);
    const simMid = new Big(book.bids[0][0]).plus(book.asks[0][0]).div(2);
    const price = new Big(fill.data['price'] as string);
    const expected = markoutBps(order.side, price, simMid).toFixed();
    expect(markoutsOf(events)).toEqual([
      {
        fill_id: fill.data['fill_id'],
        horizon_s: 1,
        mid: simMid.toFixed(),
        bps: expected,
        worker_id: expect.any(String),
      },
      {
        fill_id: fill.data['fill_id'],
        horizon_s: 10,
        mid: simMid.toFixed(),
        bps: expected,
        worker_id: expect.any(String),
      },
    ]);
    await harness.cancelTrade(trader, tradeId);
  });

  it('a trade that ends on its last fill still has that fill marked, and holds no slot meanwhile', async () => {
    await harness.addWorker({ WORKER_MAX_TRADES: '1' });
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.01');
    await harness.waitForStatus(trader, tradeId, 'completed');
    const events = await harness.waitForEvent(trader, tradeId, 'markout', 2, 15_000);
    const [fill] = events.filter((event) => event.event_type === 'maker_fill');
    expect(markoutsOf(events).map((mark) => [mark['fill_id'], mark['horizon_s']])).toEqual([
      [fill.data['fill_id'], 1],
      [fill.data['fill_id'], 10],
    ]);
    // Its 60 s mark is still ahead, yet the worker's one slot is free: the next trade quotes.
    const next = await harness.createTrade(trader, { target_spread: '-1000' });
    await harness.waitForStatus(trader, next, 'active');
    await harness.cancelTrade(trader, next);
  });

  it('a worker killed before the 60 s mark: the new owner logs the marks still ahead, never one twice', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.003');
    await harness.waitForEvent(trader, tradeId, 'markout', 1, 5_000);
    await first.kill();
    const second = await harness.addWorker();
    const events = await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 20_000);
    const [fill] = events.filter((event) => event.event_type === 'maker_fill');
    const fillAt = fill.data['timestamp_ms'] as number;
    const marks = await eventually(
      async () => {
        const now = markoutsOf(await harness.events(trader, tradeId));
        return now.some((mark) => mark['horizon_s'] === 60) ? now : undefined;
      },
      'the 60 s mark',
      { timeoutMs: fillAt + 65_000 - Date.now(), intervalMs: 500 },
    );
    const byHorizon = new Map(marks.map((mark) => [mark['horizon_s'], mark]));
    expect(marks).toHaveLength(byHorizon.size); // never one horizon twice
    expect(byHorizon.get(1)?.worker_id).toBe(first.workerId);
    expect(byHorizon.get(60)?.worker_id).toBe(second.workerId);
    // The 10 s mark is the new owner's if it ran by then, else absent: never the dead worker's.
    expect([undefined, second.workerId]).toContain(byHorizon.get(10)?.worker_id);
  });
});
