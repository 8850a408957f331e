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

export const hedgeSent = (cause: string, arrivalMid: string | null, attempt = 1) =>
  logEntry('hedge_sent', {
    exchange: 'paradex',
    side: 'sell',
    size: '0.004',
    price: '64990',
    client_order_id: `h-${cause}-${attempt}`,
    attempt,
    cause,
    arrival_mid: arrivalMid,
  });

export const quotingSpell = (
  untilMs: number,
  counts: { quotedMs: number; placed: number; replaced?: number; canceled?: number },
  leg: { exchange?: string; side?: 'buy' | 'sell' } = {},
) =>
  logEntry('quoting', {
    exchange: leg.exchange ?? 'hyperliquid',
    side: leg.side ?? 'buy',
    from_ms: untilMs - counts.quotedMs,
    until_ms: untilMs,
    quoted_ms: counts.quotedMs,
    placed: counts.placed,
    replaced: counts.replaced ?? 0,
    canceled: counts.canceled ?? 0,
  });

export const chunkStarted = (spreadAtStart: string | null) =>
  logEntry('chunk_started', {
    target_size: '0.01',
    size_type: 'base',
    spread_at_start: spreadAtStart,
  });
