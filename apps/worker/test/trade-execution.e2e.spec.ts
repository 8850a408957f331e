import Big from 'big.js';
import { WorkerHarness } from './worker-harness';

jest.setTimeout(60_000);

describe('trade execution (maker on hyperliquid, hedge on paradex)', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it('quotes, fills in parts, hedges every fill and completes with filled_size == target_size', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_size: '0.01', target_spread: '5' });

    const active = await harness.waitForStatus(trader, tradeId, 'active');
    expect(active.filled_size).toBe('0');
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(order).toMatchObject({ side: 'buy', size: '0.01', type: 'post_only' });

    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    const partly = await harness.trade(trader, tradeId);
    expect(partly.status).toBe('active');
    expect(partly.filled_size).toBe('0.004');
    expect(partly.fast_move_guard_stats).toBeNull();

    // The rest of the size rests: the order that filled in part, or, when a book move made the
    // worker re-quote meanwhile (a loaded machine), its replacement for the 0.006 left.
    const rest = await harness.waitForMakerOrder(trader, 'hyperliquid', (o) =>
      new Big(o.size).minus(o.filledSize).eq('0.006'),
    );
    await harness.takeFromMaker(rest, '0.006');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done.filled_size).toBe('0.01');
    expect(done.completed_at).toEqual(expect.any(String));
    // Written on every trade when it ends: a default quote's guard is off, which watched nothing.
    expect(done.fast_move_guard_stats).toEqual({
      mode: 'off',
      triggers: 0,
      holds: 0,
      hold_ms_total: 0,
      orders_canceled: 0,
      fills_after_trigger: 0,
      adverse_fills: 0,
      max_move_bps: 0,
    });

    const events = await harness.events(trader, tradeId);
    // Markouts of the fills come a second and more after each: their order is the clock's.
    // Each fill's batch closes with the quoting spell before it (sequenced apart below).
    const money = events.filter((e) => e.event_type !== 'markout' && e.event_type !== 'quoting');
    expect(money.map((e) => e.event_type)).toEqual([
      'chunk_started',
      'maker_fill',
      'hedge_sent',
      'hedge_filled',
      'hedge_outcome',
      'maker_fill',
      'hedge_sent',
      'hedge_filled',
      'hedge_outcome',
      'chunk_completed',
    ]);
    // The market it started in: a bid at hyperliquid's touch against paradex's bid, in USD.
    const started = events.find((e) => e.event_type === 'chunk_started')!.data;
    expect(started.spread_at_start).toMatch(/^-?\d+(\.\d+)?$/);
    const afterEachFill = events.flatMap((e, i) =>
      e.event_type === 'maker_fill' ? [events[i + 2]?.event_type] : [],
    );
    expect(afterEachFill).toEqual(['quoting', 'quoting']);
    const spells = events.flatMap((e) => (e.event_type === 'quoting' ? [e.data] : []));
    // The order that filled in part may have rested on for the rest, or been re-quoted.
    expect(spells.reduce((sum, spell) => sum + spell.placed, 0)).toBeGreaterThanOrEqual(1);
    expect(spells.every((spell) => spell.exchange === 'hyperliquid' && spell.side === 'buy')).toBe(
      true,
    );
    const quotedMs = spells.reduce((sum, spell) => sum + spell.quoted_ms, 0);
    const firstFrom = spells[0].from_ms;
    expect(quotedMs).toBeGreaterThan(0);
    expect(quotedMs).toBeLessThanOrEqual(spells.at(-1)!.until_ms - firstFrom);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(new Set(events.map((e) => e.worker_id)).size).toBe(1);
    const makerFill = events.find((e) => e.event_type === 'maker_fill')!.data;
    expect(makerFill).toMatchObject({
      exchange: 'hyperliquid',
      market: 'BTC',
      side: 'buy',
      price: order.price,
      size: '0.004',
      order_id: order.orderId,
      client_order_id: order.clientOrderId,
      fully_filled: false,
      timestamp_ms: expect.any(Number),
    });
    expect(events.find((e) => e.event_type === 'hedge_sent')!.data).toMatchObject({
      exchange: 'paradex',
      side: 'sell',
      size: '0.004',
    });
    const outcomes = events.filter((e) => e.event_type === 'hedge_outcome').map((e) => e.data);
    expect(outcomes).toEqual([
      expect.objectContaining({
        result: 'filled',
        requested_size: '0.004',
        filled_size: '0.004',
        attempts: 1,
      }),
      expect.objectContaining({
        result: 'filled',
        requested_size: '0.006',
        filled_size: '0.006',
        attempts: 1,
      }),
    ]);
    // A long maker buys at the maker price and the hedge sells: spread = hedge price - maker price.
    expect(outcomes[0].spread_achieved).toBe(
      new Big(outcomes[0].avg_price).minus(makerFill.price).toFixed(),
    );
    expect(outcomes[0]).toMatchObject({
      exchange: 'paradex',
      side: 'sell',
      guard_fill_class: null,
    });
    expect(Number(outcomes[0].slippage_bps)).toBeGreaterThanOrEqual(0);
    expect(harness.closingEvent(events).data).toEqual({
      filled_size: '0.01',
      reason: 'target_reached',
      residual_unhedged: '0',
      residual_unwound: '0',
    });

    // The venues' own records: the hedges sold exactly what the maker bought.
    const makerFills = await harness.sim.fillsOf('hyperliquid', trader.wallet);
    const hedgeFills = await harness.sim.fillsOf('paradex', trader.wallet);
    const sum = (fills: Array<{ size: string }>) =>
      fills.reduce((s, f) => s.plus(f.size), new Big(0));
    expect(sum(makerFills).toFixed()).toBe('0.01');
    expect(sum(hedgeFills).toFixed()).toBe('0.01');
    expect(hedgeFills.every((fill) => fill.side === 'sell')).toBe(true);
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');

    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.completed');
    expect(lifecycle.map((e) => e.event)).toEqual(['trade.started', 'trade.completed']);
    expect(lifecycle[1]).toMatchObject({ status: 'completed', user_id: trader.userId });
  });
});
