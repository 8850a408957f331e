import Big from 'big.js';
import { WorkerHarness } from './worker-harness';

jest.setTimeout(60_000);

describe('maintenance, kill switch, hedge faults and pre-flight', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it('maintenance of the maker venue pauses the trade (order canceled), leaving it resumes it', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000' });
    await harness.waitForMakerOrder(trader, 'hyperliquid');

    await harness.gateway.ops(
      'maintenance',
      'set',
      'hyperliquid',
      'on',
      '--reason',
      'venue upgrade',
    );
    await harness.waitForStatus(trader, tradeId, 'paused');
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    const paused = await harness.waitForLifecycle(tradeId, 'trade.paused');
    expect(paused[paused.length - 1]).toMatchObject({
      status: 'paused',
      data: { reason: 'maintenance', exchange: 'hyperliquid' },
    });

    await harness.gateway.ops('maintenance', 'set', 'hyperliquid', 'off');
    await harness.waitForStatus(trader, tradeId, 'active');
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.waitForLifecycle(tradeId, 'trade.resumed');
    expect(harness.lifecycleOf(tradeId)).toEqual([
      'trade.started',
      'trade.paused',
      'trade.resumed',
    ]);
    await harness.cancelTrade(trader, tradeId);
  });

  it('a maker fill while the account stream is down is read back after the reconnect and hedged', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_size: '0.01', target_spread: '5' });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');

    // The worker's hyperliquid account socket drops and new ones are refused
    // for a while; the maker order fills meanwhile, so the stream never says so.
    const { dropped } = await harness.sim.dropSockets('hyperliquid', 1_500, trader.wallet);
    expect(dropped).toBeGreaterThan(0);
    await harness.takeFromMaker(order, '0.004');

    // After the reconnect the session reads the fills it missed and the hedge goes out.
    const outcomes = await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 15_000);
    expect(outcomes.find((e) => e.event_type === 'maker_fill')?.data).toMatchObject({
      size: '0.004',
    });
    const hedgeFills = await harness.sim.fillsOf('paradex', trader.wallet);
    expect(hedgeFills.reduce((sum, fill) => sum.plus(fill.size), new Big(0)).toFixed()).toBe(
      '0.004',
    );
    expect((await harness.trade(trader, tradeId)).filled_size).toBe('0.004');
    await harness.cancelTrade(trader, tradeId);
  });

  it('a maker venue whose sockets all drop: the order comes down, and rests again once the venue is back', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000' });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');

    // Every hyperliquid socket (market data and accounts) drops and stays refused for a while.
    await harness.sim.dropSockets('hyperliquid', 800);
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    // The book has not moved meanwhile: the first book after the reconnect alone must bring quoting back.
    const next = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (order) => order.orderId !== first.orderId,
      15_000,
    );
    expect(next.price).toBe(first.price);
    expect((await harness.trade(trader, tradeId)).status).toBe('active');
    await harness.cancelTrade(trader, tradeId);
  });

  it('the kill switch pauses every trade at once and resumes them when lifted', async () => {
    const first = await harness.trader();
    const second = await harness.trader(['lighter', 'aster']);
    const a = await harness.createTrade(first, { target_spread: '-1000' });
    const b = await harness.createTrade(second, {
      long_exchange: 'aster',
      short_exchange: 'lighter',
      maker_leg: 'short',
      target_spread: '-1000',
    });
    await harness.waitForMakerOrder(first, 'hyperliquid');
    await harness.waitForMakerOrder(second, 'lighter', (o) => o.side === 'sell');

    await harness.gateway.ops('kill-switch', 'on', '--reason', 'incident');
    await harness.waitForStatus(first, a, 'paused');
    await harness.waitForStatus(second, b, 'paused');
    await harness.waitForNoOpenOrders(first, 'hyperliquid');
    await harness.waitForNoOpenOrders(second, 'lighter');
    const paused = await harness.waitForLifecycle(b, 'trade.paused');
    expect(paused[paused.length - 1].data).toEqual({
      reason: 'kill_switch',
      exchange: '_kill_switch',
    });

    await harness.gateway.ops('kill-switch', 'off');
    await harness.waitForStatus(first, a, 'active');
    await harness.waitForStatus(second, b, 'active');
    await harness.waitForMakerOrder(second, 'lighter');
    for (const [trader, id] of [
      [first, a],
      [second, b],
    ] as const) {
      await harness.gateway.request('DELETE', `/api/v1/trades/${id}`, { headers: trader.headers });
      await harness.waitForStatus(trader, id, 'canceled');
    }
  });

  it('a hedge rejected twice is retried from a fresh reference and fills on the third attempt', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.003',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.sim.rejectNext('paradex', 2, 'injected_rejection');
    await harness.takeFromMaker(order, '0.003');
    await harness.waitForStatus(trader, tradeId, 'completed');

    const events = await harness.events(trader, tradeId);
    const sent = events.filter((e) => e.event_type === 'hedge_sent').map((e) => e.data);
    expect(sent.map((d) => d.attempt)).toEqual([1, 2, 3]);
    expect(new Set(sent.map((d) => d.client_order_id)).size).toBe(3);
    expect(events.filter((e) => e.event_type === 'hedge_outcome').map((e) => e.data)).toEqual([
      expect.objectContaining({
        result: 'filled',
        attempts: 3,
        requested_size: '0.003',
        filled_size: '0.003',
      }),
    ]);
    const hedgeFills = await harness.sim.fillsOf('paradex', trader.wallet);
    expect(hedgeFills.reduce((sum, f) => sum.plus(f.size), new Big(0)).toFixed()).toBe('0.003');
  });

  it('a hedge that never fills times out: hedge_timeout, the trade fails naming the unhedged size', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.sim.rejectNext('paradex', 10_000, 'injected_rejection');
    try {
      await harness.takeFromMaker(order, '0.002');
      const failed = await harness.waitForStatus(trader, tradeId, 'failed', 15_000);
      expect(failed.failure_reason).toContain('hedge timed out');
      expect(failed.failure_reason).toContain('unhedged size 0.002 BTC on paradex');
      expect(failed.filled_size).toBe('0.002');
    } finally {
      await harness.sim.rejectNext('paradex', 0);
    }
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    const events = await harness.events(trader, tradeId);
    const timeout = events.find((e) => e.event_type === 'hedge_timeout')!;
    expect(timeout.data).toMatchObject({ exchange: 'paradex', unhedged_size: '0.002' });
    expect(timeout.data.waited_ms).toBeGreaterThanOrEqual(3000);
    expect(events.find((e) => e.event_type === 'hedge_outcome')!.data).toMatchObject({
      result: 'timeout',
      requested_size: '0.002',
      filled_size: '0',
    });
    expect(harness.closingEvent(events).data).toMatchObject({
      reason: 'failed',
      residual_unhedged: '0.002',
    });
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.failed');
    expect(lifecycle[lifecycle.length - 1].data).toMatchObject({ unhedged_size: '0.002' });
  });

  it('pre-flight: an account without the margin is rejected with failure_reason', async () => {
    const trader = await harness.trader();
    await harness.sim.registerAccount('hyperliquid', {
      ...trader.credentials['hyperliquid'],
      collateral: '5',
    });
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.5',
      quote_mode: 'aggressive',
    });
    const rejected = await harness.waitForStatus(trader, tradeId, 'rejected');
    expect(rejected.failure_reason).toMatch(
      /^insufficient margin on hyperliquid: .* available, .* required$/,
    );
    expect(rejected.completed_at).toEqual(expect.any(String));
    // Rejected is an end too: the guard's figures are written, here a shadow guard that never watched.
    expect(rejected.fast_move_guard_stats).toEqual({
      mode: 'shadow',
      triggers: 0,
      holds: 0,
      hold_ms_total: 0,
      orders_canceled: 0,
      fills_after_trigger: 0,
      adverse_fills: 0,
      max_move_bps: 0,
    });
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.failed');
    expect(lifecycle[0]).toMatchObject({ status: 'rejected' });
    const [credential] = await harness.gateway.query(
      `SELECT last_used FROM exchange_credentials WHERE wallet_addr = $1 AND exchange = 'hyperliquid'`,
      [trader.wallet],
    );
    expect(credential.last_used).not.toBeNull();
  });
});
