import Big from 'big.js';
import { sleep } from '@sts/platform';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(60_000);

/**
 * Issue 35's untested rows on the fast-move guard inside a worker: `shadow`
 * mode records a trigger and acts on nothing, and the worker's log classes
 * maker fills `after_trigger` (inside the settle window of a trigger) and
 * `adverse` (H moved against the order by the threshold within the window,
 * no trigger's settle window covering the fill). H is moved with the
 * simulator's jumpVenue on paradex, the hedge venue of a long maker on
 * hyperliquid, so the maker book stays where it is.
 */
describe('fast-move guard in shadow mode', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  /** An aggressive trade with a shadow guard of 5 bps, its order resting. */
  async function shadowTrade(timing: { fast_move_window_ms: number; fast_move_settle_ms: number }) {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
      quote_mode: 'aggressive',
      fast_move_guard: 'shadow',
      fast_move_guard_bps: 5,
      ...timing,
    });
    const order = await harness.waitForRestingOrder(trader, 'hyperliquid');
    return { trader, tradeId, order };
  }

  /** H falls 20 bps at once; returns the fast_move_guard entry the worker logged. */
  async function fastFall(trader: Trader, tradeId: string) {
    await harness.sim.jumpVenue('paradex', -20, 'BTC-USD-PERP');
    const events = await harness.waitForEvent(trader, tradeId, 'fast_move_guard');
    return events.find((event) => event.event_type === 'fast_move_guard')!.data;
  }

  const hedgeOutcome = async (trader: Trader, tradeId: string) => {
    const events = await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    return events.find((event) => event.event_type === 'hedge_outcome')!.data;
  };

  it('records the trigger, leaves the order resting, holds nothing; a fill inside settle_ms is after_trigger', async () => {
    const { trader, tradeId, order } = await shadowTrade({
      fast_move_window_ms: 250,
      fast_move_settle_ms: 10_000,
    });

    const trigger = await fastFall(trader, tradeId);
    expect(trigger).toMatchObject({
      threshold: 5,
      action: 'shadow',
      references: { window_ms: 250 },
    });
    expect(trigger.move).toBeGreaterThanOrEqual(5);
    expect(new Big(trigger.references.to).lt(trigger.references.from)).toBe(true);

    // Shadow cancels nothing: the same order still rests on the venue.
    await sleep(300);
    const resting = await harness.sim.accountOrders('hyperliquid', trader.wallet, {
      status: 'open',
    });
    expect(resting.orders.map((o) => o.order_id)).toEqual([order.orderId]);

    await harness.takeFromMaker(order, '0.002');
    expect(await hedgeOutcome(trader, tradeId)).toMatchObject({
      result: 'filled',
      filled_size: '0.002',
      guard_fill_class: 'after_trigger',
    });

    await harness.cancelTrade(trader, tradeId);
    const ended = await harness.trade(trader, tradeId);
    expect(ended.fast_move_guard_stats).toEqual({
      mode: 'shadow',
      triggers: 1,
      holds: 0,
      hold_ms_total: 0,
      orders_canceled: 0,
      fills_after_trigger: 1,
      adverse_fills: 0,
      max_move_bps: expect.any(Number),
    });
    expect((ended.fast_move_guard_stats as { max_move_bps: number }).max_move_bps).toBe(
      trigger.move,
    );
  });

  it('a fill after the settle window, while the move is still inside the window, is adverse', async () => {
    const { trader, tradeId, order } = await shadowTrade({
      fast_move_window_ms: 5_000,
      fast_move_settle_ms: 50,
    });

    const trigger = await fastFall(trader, tradeId);
    expect(trigger).toMatchObject({ action: 'shadow', references: { window_ms: 5_000 } });
    // Well past settle_ms (50), well inside window_ms (5000).
    await sleep(400);
    await harness.takeFromMaker(order, '0.002');
    expect(await hedgeOutcome(trader, tradeId)).toMatchObject({
      result: 'filled',
      filled_size: '0.002',
      guard_fill_class: 'adverse',
    });

    await harness.cancelTrade(trader, tradeId);
    expect((await harness.trade(trader, tradeId)).fast_move_guard_stats).toMatchObject({
      mode: 'shadow',
      triggers: 1,
      holds: 0,
      orders_canceled: 0,
      fills_after_trigger: 0,
      adverse_fills: 1,
    });
  });
});
