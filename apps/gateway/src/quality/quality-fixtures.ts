import { decodeLogEntry, logEntry, type LogEntry, type MarkoutHorizon } from '@sts/contracts';

/** Execution-log entries as a reader decodes them, for the quality specs. */
export const makerFill = (
  fillId: string,
  overrides: { exchange?: string; side?: 'buy' | 'sell'; price?: string; atMs?: number } = {},
): LogEntry =>
  decodeLogEntry('maker_fill', {
    exchange: overrides.exchange ?? 'hyperliquid',
    market: 'BTC',
    side: overrides.side ?? 'buy',
    price: overrides.price ?? '65000',
    size: '0.004',
    order_id: 'o-1',
    client_order_id: 'c-1',
    fully_filled: false,
    timestamp_ms: overrides.atMs ?? 1_764_000_000_000,
    fill_id: fillId,
    fee: '0.01',
    fee_asset: 'USDC',
    liquidity: 'maker',
  });

export const markout = (fillId: string, horizon: MarkoutHorizon, bps: string, mid = '65010') =>
  logEntry('markout', { fill_id: fillId, horizon_s: horizon, mid, bps });

export const hedgeOutcome = (cause: string, slippageBps: string | null, filledSize = '0.004') =>
  logEntry('hedge_outcome', {
    result: filledSize === '0' ? 'rejected' : 'filled',
    exchange: 'paradex',
    side: 'sell',
    requested_size: '0.004',
    filled_size: filledSize,
    avg_price: filledSize === '0' ? null : '65006',
    attempts: 1,
    slippage_bps: slippageBps,
    spread_achieved: null,
    guard_fill_class: null,
    cause,
  });
