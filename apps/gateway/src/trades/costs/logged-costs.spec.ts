import { decodeLogEntry, logEntry, type LogEntry } from '@sts/contracts';
import { loggedCosts } from './logged-costs';

const makerFill = (fillId: string, fee?: string): LogEntry =>
  // Decoded as a reader gets it: an entry logged before fees has no fee fields.
  decodeLogEntry('maker_fill', {
    exchange: 'paradex',
    market: 'BTC',
    side: 'buy',
    price: '65000',
    size: '0.004',
    order_id: 'o-1',
    client_order_id: 'c-1',
    fully_filled: false,
    timestamp_ms: 1_764_000_000_000,
    fill_id: fillId,
    ...(fee !== undefined ? { fee, fee_asset: 'USDC', liquidity: 'maker' } : {}),
  });

const hedgeFilled = logEntry('hedge_filled', {
  exchange: 'hyperliquid',
  side: 'sell',
  price: '65040',
  size: '0.004',
  order_id: 'h-1',
  timestamp_ms: 1_764_000_000_050,
  client_order_id: 'hc-1',
  fee: '0.052',
  fee_asset: 'USD',
  liquidity: 'taker',
});

const hedgeOutcome = (filledSize: string, slippageBps: string | null) =>
  logEntry('hedge_outcome', {
    result: filledSize === '0' ? 'rejected' : 'filled',
    exchange: 'hyperliquid',
    side: 'sell',
    requested_size: '0.004',
    filled_size: filledSize,
    avg_price: filledSize === '0' ? null : '65040',
    attempts: 1,
    slippage_bps: slippageBps,
    spread_achieved: null,
    guard_fill_class: null,
    cause: 'f-1',
  });

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

  it('takes the slippage of the hedges that filled only', () => {
    const costs = loggedCosts('long', [hedgeOutcome('0.004', '1.5'), hedgeOutcome('0', null)]);
    expect(costs.long).toEqual([]);
    expect(costs.hedges.map((hedge) => hedge.slippageBps.toFixed())).toEqual(['1.5']);
  });
});
