import Big from 'big.js';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(60_000);

/** What the simulator recorded: the wallet's signed fills in one market of one venue. */
async function netOf(
  harness: WorkerHarness,
  venue: string,
  wallet: string,
  symbol: string,
): Promise<Big> {
  const fills = await harness.sim.fillsOf(venue, wallet);
  return fills
    .filter((fill) => fill.symbol === symbol)
    .reduce(
      (net, fill) => (fill.side === 'buy' ? net.plus(fill.size) : net.minus(fill.size)),
      new Big(0),
    );
}

/** The wallet's position in the market across the trade's two venues, from the venues' own records. */
async function walletNet(
  harness: WorkerHarness,
  trader: Trader,
  legs: Array<[venue: string, symbol: string]>,
): Promise<Big> {
  let net = new Big(0);
  for (const [venue, symbol] of legs) {
    net = net.plus(await netOf(harness, venue, trader.wallet, symbol));
  }
  return net;
}

/**
 * Issue 54, "no silent remainder" (decisions 2): maker fills the hedge venue
 * cannot take (below its lot or minimum) are unwound at the trade's end on
 * the maker venue by a reduce-only IOC where that venue's minimum allows, or
 * named on the trade; either way the trade's answer, its lifecycle event and
 * the positions view say so. Judged by the simulator's own fills.
 */
describe('what a trade could not hedge is unwound, or named', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it('a fill landing while the completed trade takes its order down: unwound on the maker venue (the 0.23 SOL finding)', async () => {
    // Maker on Hyperliquid (SOL minimum 10 USD), hedge on Paradex (100 USD).
    const trader = await harness.trader(['hyperliquid', 'paradex']);
    const tradeId = await harness.createTrade(trader, {
      market: 'SOL',
      target_size: '2',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(order.size).toBe('2');
    // The take-down's cancel is held on its way to the venue, as a latency spike on the
    // maker venue held it in the finding: the rest of the order fills meanwhile.
    await harness.sim.loseNext('hyperliquid', {
      op: 'cancel',
      wallet: trader.wallet,
      at: 'before',
      then: 'hang',
      hangMs: 2_500,
    });
    await harness.takeFromMaker(order, '1.77');
    const hedged = await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    expect(hedged.find((e) => e.event_type === 'hedge_outcome')!.data).toMatchObject({
      result: 'filled',
      filled_size: '1.77',
    });
    // 0.23 SOL (about 41 USD) is below Paradex's minimum: no hedge can take it.
    await harness.takeFromMaker(order, '0.23');

    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed).toMatchObject({
      filled_size: '2',
      failure_reason: '',
      residual_unhedged: '0.23',
      residual_unwound: '0.23',
    });
    const events = await harness.events(trader, tradeId);
    const sent = events.find((e) => e.event_type === 'unwind_sent')!;
    expect(sent.data).toMatchObject({
      exchange: 'hyperliquid',
      side: 'sell',
      size: '0.23',
      reduce_only: true,
    });
    expect(events.find((e) => e.event_type === 'unwind_outcome')!.data).toMatchObject({
      result: 'filled',
      requested_size: '0.23',
      filled_size: '0.23',
      client_order_id: sent.data.client_order_id,
      reason: null,
    });
    expect(harness.closingEvent(events)).toMatchObject({
      event_type: 'chunk_completed',
      data: { reason: 'target_reached', residual_unhedged: '0.23', residual_unwound: '0.23' },
    });
    // The venues' records: the unwind was a reduce-only sell of 0.23 on the maker venue,
    // and the wallet is flat in SOL across both venues (within one lot: 0.01).
    const unwind = (await harness.sim.fillsOf('hyperliquid', trader.wallet)).filter(
      (fill) => fill.client_order_id === sent.data.client_order_id,
    );
    expect(unwind.map((fill) => [fill.side, fill.size])).toEqual([['sell', '0.23']]);
    const net = await walletNet(harness, trader, [
      ['hyperliquid', 'SOL'],
      ['paradex', 'SOL-USD-PERP'],
    ]);
    expect(net.abs().lte('0.01')).toBe(true);
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.completed');
    expect(lifecycle[lifecycle.length - 1].data).toMatchObject({
      residual_unhedged: '0.23',
      residual_unwound: '0.23',
    });
  });

  it("a completed trade's lot residue below the hedge venue's lot is unwound on the maker venue", async () => {
    // Maker on Hyperliquid (BTC lot 0.00001), hedge on Aster (lot 0.001): a partial
    // fill of 0.00195 hedges 0.001 and leaves 0.00095; the 0.00005 left of the target
    // makes no order (under Hyperliquid's 10 USD), so the trade completes with it.
    const trader = await harness.trader(['hyperliquid', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      short_exchange: 'aster',
      target_size: '0.002',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.00195');
    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed).toMatchObject({
      filled_size: '0.00195',
      residual_unhedged: '0.00095',
      residual_unwound: '0.00095',
    });
    const net = await walletNet(harness, trader, [
      ['hyperliquid', 'BTC'],
      ['aster', 'BTCUSDT'],
    ]);
    expect(net.abs().lte('0.00001')).toBe(true);
    expect((await netOf(harness, 'hyperliquid', trader.wallet, 'BTC')).toFixed()).toBe('0.001');
  });

  it("names a remainder the maker venue's minimum refuses to unwind: on the trade, its event and the positions", async () => {
    // Maker on Paradex (BTC minimum 100 USD), hedge on Aster (lot 0.001): 0.0015 filled,
    // 0.001 hedged, 0.0005 (about 48 USD) fits neither venue's minimum.
    const trader = await harness.trader(['paradex', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      long_exchange: 'paradex',
      short_exchange: 'aster',
      target_size: '0.002',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'paradex');
    await harness.takeFromMaker(order, '0.0015');
    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed).toMatchObject({
      filled_size: '0.0015',
      failure_reason: '',
      residual_unhedged: '0.0005',
      residual_unwound: '0',
    });
    const events = await harness.events(trader, tradeId);
    expect(events.some((e) => e.event_type === 'unwind_sent')).toBe(false);
    expect(events.find((e) => e.event_type === 'unwind_outcome')!.data).toMatchObject({
      result: 'below_minimum',
      exchange: 'paradex',
      side: 'sell',
      requested_size: '0.0005',
      filled_size: '0',
      order_id: null,
    });
    // Nothing was sent: the venues hold the 0.0005 one-sided, as the trade says.
    const net = await walletNet(harness, trader, [
      ['paradex', 'BTC-USD-PERP'],
      ['aster', 'BTCUSDT'],
    ]);
    expect(net.toFixed()).toBe('0.0005');
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.completed');
    expect(lifecycle[lifecycle.length - 1].data).toMatchObject({
      residual_unhedged: '0.0005',
      residual_unwound: '0',
    });
    const listed = await harness.gateway.request('GET', '/api/v1/trades', {
      headers: trader.headers,
    });
    expect(listed.body.find((t: { trade_id: string }) => t.trade_id === tradeId)).toMatchObject({
      residual_unhedged: '0.0005',
      residual_unwound: '0',
    });
    const positions = await harness.gateway.request('GET', '/api/v1/positions', {
      headers: trader.headers,
    });
    const btc = positions.body.positions.find(
      (p: { market: string; wallet: string }) =>
        p.market === 'BTC' && p.wallet === trader.wallet.toLowerCase(),
    );
    expect(btc).toMatchObject({ residual_unhedged: '0.0005', unexplained: false });
    expect(btc.venues.find((v: { exchange: string }) => v.exchange === 'paradex')).toMatchObject({
      residual_unhedged: '0.0005',
      residual_trade_ids: [tradeId],
    });
  });

  it('a canceled trade unwinds what its hedges could not take too', async () => {
    const trader = await harness.trader(['hyperliquid', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      short_exchange: 'aster',
      target_size: '0.003',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.0015');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    await harness.cancelTrade(trader, tradeId);
    const canceled = await harness.trade(trader, tradeId);
    expect(canceled).toMatchObject({ residual_unhedged: '0.0005', residual_unwound: '0.0005' });
    const net = await walletNet(harness, trader, [
      ['hyperliquid', 'BTC'],
      ['aster', 'BTCUSDT'],
    ]);
    expect(net.abs().lte('0.00001')).toBe(true);
  });

  it('sends no unwind while the maker venue is in maintenance: the canceled trade names the remainder', async () => {
    const trader = await harness.trader(['hyperliquid', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      short_exchange: 'aster',
      target_size: '0.003',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.0015');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    await harness.gateway.ops('maintenance', 'set', 'hyperliquid', 'on', '--reason', 'upgrade');
    try {
      await harness.waitForStatus(trader, tradeId, 'paused');
      await harness.cancelTrade(trader, tradeId);
    } finally {
      await harness.gateway.ops('maintenance', 'set', 'hyperliquid', 'off');
    }
    expect(await harness.trade(trader, tradeId)).toMatchObject({
      residual_unhedged: '0.0005',
      residual_unwound: '0',
    });
    const events = await harness.events(trader, tradeId);
    expect(events.some((e) => e.event_type === 'unwind_sent')).toBe(false);
    expect(events.find((e) => e.event_type === 'unwind_outcome')!.data).toMatchObject({
      result: 'halted',
      requested_size: '0.0005',
      filled_size: '0',
    });
    expect((await netOf(harness, 'hyperliquid', trader.wallet, 'BTC')).toFixed()).toBe('0.0015');
  });
});
