import { loggedCosts } from './logged-costs';

const makerFill = (fillId: string, fee?: string) => ({
  eventType: 'maker_fill',
  data: {
    price: '65000',
    size: '0.004',
    fill_id: fillId,
    order_id: 'o-1',
    ...(fee !== undefined ? { fee, fee_asset: 'USDC', liquidity: 'maker' } : {}),
  },
});

const hedgeFilled = {
  eventType: 'hedge_filled',
  data: { price: '65040', size: '0.004', order_id: 'h-1', fee: '0.052', fee_asset: 'USD' },
};

describe('the fills of an execution log, by leg', () => {
  it('puts maker fills on the maker leg and hedge fills on the other', () => {
    const long = loggedCosts('long', [makerFill('f-1', '0.039'), hedgeFilled]);
    expect(long.long.map((fill) => fill.fee?.toFixed())).toEqual(['0.039']);
    expect(long.short.map((fill) => fill.feeAsset)).toEqual(['USD']);
    const short = loggedCosts('short', [makerFill('f-1', '0.039'), hedgeFilled]);
    expect(short.short[0].price.toFixed()).toBe('65000');
    expect(short.long[0].price.toFixed()).toBe('65040');
  });

  it('counts a venue fill once however often it was logged', () => {
    const costs = loggedCosts('long', [
      makerFill('f-1', '0.039'),
      makerFill('f-1', '0.039'),
      makerFill('f-2', '0.039'),
      hedgeFilled,
      hedgeFilled,
    ]);
    expect(costs.long).toHaveLength(2);
    expect(costs.short).toHaveLength(1);
  });

  it('reads an entry logged before fees as a fill without a fee', () => {
    const [fill] = loggedCosts('long', [makerFill('f-1')]).long;
    expect(fill.fee).toBeNull();
    expect(fill.feeAsset).toBeNull();
  });

  it('takes the slippage of the hedges that filled, and skips entries without a price', () => {
    const costs = loggedCosts('long', [
      { eventType: 'maker_fill', data: { fill_id: 'f-9' } },
      { eventType: 'hedge_outcome', data: { filled_size: '0.004', slippage_bps: '1.5' } },
      { eventType: 'hedge_outcome', data: { filled_size: '0', slippage_bps: null } },
    ]);
    expect(costs.long).toEqual([]);
    expect(costs.hedges.map((hedge) => hedge.slippageBps.toFixed())).toEqual(['1.5']);
  });
});
