import Big from 'big.js';
import type { SimFill } from './venue-sim-control';
import { WorkerHarness, type TradeEventView } from './worker-harness';

jest.setTimeout(60_000);

const sum = (values: Big[]): Big => values.reduce((total, value) => total.plus(value), new Big(0));
const sizeOf = (fills: SimFill[]): Big => sum(fills.map((fill) => new Big(fill.size)));
const feeOf = (fills: SimFill[]): Big => sum(fills.map((fill) => new Big(fill.fee)));
/** Volume-weighted, to the 12 places the API keeps (half-even). */
const vwap = (fills: SimFill[]): Big =>
  sum(fills.map((fill) => new Big(fill.price).times(fill.size)))
    .div(sizeOf(fills))
    .round(12, Big.roundHalfEven);

describe('costs and results of a trade (maker on hyperliquid, hedge on paradex, both with fees)', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it("shows per leg the venues' own fills, fees and prices, and the spread realised before and after fees", async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, { target_size: '0.01', target_spread: '5' });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect((await harness.trade(trader, tradeId))['costs']).toEqual({
      long: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
      short: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
      realised_spread: null,
      realised_spread_after_fees: null,
      avg_hedge_slippage_bps: null,
    });

    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    const rest = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.filledSize === '0.004',
    );
    await harness.takeFromMaker(rest, '0.006');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');

    // The venues' own records are the truth the costs must equal.
    const makerFills = await harness.sim.fillsOf('hyperliquid', trader.wallet);
    const hedgeFills = await harness.sim.fillsOf('paradex', trader.wallet);
    expect(makerFills.length).toBe(2);
    expect(feeOf(makerFills).gt(0)).toBe(true);
    expect(feeOf(hedgeFills).gt(0)).toBe(true);
    const longSize = sizeOf(makerFills);
    const shortSize = sizeOf(hedgeFills);
    const longPrice = vwap(makerFills);
    const shortPrice = vwap(hedgeFills);
    // The spread type is absolute: sell average less buy average, then less each leg's fee per unit.
    const realised = shortPrice.minus(longPrice);
    const afterFees = realised
      .minus(feeOf(makerFills).div(longSize).round(12, Big.roundHalfEven))
      .minus(feeOf(hedgeFills).div(shortSize).round(12, Big.roundHalfEven));

    const events = await harness.events(trader, tradeId);
    const outcomes = events.filter((e) => e.event_type === 'hedge_outcome').map((e) => e.data);
    const slippage = sum(outcomes.map((o) => new Big(o['slippage_bps']).times(o['filled_size'])))
      .div(sum(outcomes.map((o) => new Big(o['filled_size']))))
      .round(6, Big.roundHalfEven);

    expect(done['costs']).toEqual({
      long: {
        filled_size: longSize.toFixed(),
        avg_price: longPrice.toFixed(),
        fees: [{ asset: 'USDC', amount: feeOf(makerFills).toFixed() }],
        fills: 2,
        fills_without_fee: 0,
      },
      short: {
        filled_size: shortSize.toFixed(),
        avg_price: shortPrice.toFixed(),
        fees: [{ asset: 'USD', amount: feeOf(hedgeFills).toFixed() }],
        fills: new Set(hedgeFills.map((fill) => fill.order_id)).size,
        fills_without_fee: 0,
      },
      realised_spread: realised.toFixed(),
      realised_spread_after_fees: afterFees.toFixed(),
      avg_hedge_slippage_bps: slippage.toFixed(),
    });
    const [listed] = await listTrades(harness, trader.headers);
    expect(listed).toMatchObject({ trade_id: tradeId, costs: done['costs'] });

    expectFillEntriesAsTheVenuesReported(events, makerFills, hedgeFills);
  });
});

async function listTrades(
  harness: WorkerHarness,
  headers: Record<string, string>,
): Promise<Array<Record<string, unknown>>> {
  const response = await harness.gateway.request('GET', '/api/v1/trades', { headers });
  expect(response.status).toBe(200);
  return response.body;
}

/** maker_fill per venue fill, hedge_filled per hedge order: fee, its asset and the liquidity. */
function expectFillEntriesAsTheVenuesReported(
  events: TradeEventView[],
  makerFills: SimFill[],
  hedgeFills: SimFill[],
): void {
  const makerEntries = events.filter((e) => e.event_type === 'maker_fill').map((e) => e.data);
  expect(makerEntries).toEqual(
    makerFills.map((fill) =>
      expect.objectContaining({
        fill_id: fill.fill_id,
        fee: fill.fee,
        fee_asset: 'USDC',
        liquidity: 'maker',
      }),
    ),
  );
  const hedgeEntries = events.filter((e) => e.event_type === 'hedge_filled').map((e) => e.data);
  expect(hedgeEntries.length).toBe(new Set(hedgeFills.map((fill) => fill.order_id)).size);
  for (const entry of hedgeEntries) {
    const ofOrder = hedgeFills.filter((fill) => fill.order_id === entry['order_id']);
    expect(entry).toMatchObject({
      fee: feeOf(ofOrder).toFixed(),
      fee_asset: 'USD',
      liquidity: 'taker',
    });
  }
}
