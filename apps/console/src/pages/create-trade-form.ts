import type { CreateTradeRequest } from '@sts/sdk';

export type Form = Record<(typeof FIELDS)[number], string>;

/** Every field of a create (interface.md, POST /api/v1/trades). */
export const FIELDS = [
  'market',
  'long_exchange',
  'long_wallet',
  'short_exchange',
  'short_wallet',
  'maker_leg',
  'execution_type',
  'spread_type',
  'spread_condition',
  'target_spread',
  'size_type',
  'target_size',
  'max_slippage',
  'quote_mode',
  'worst_spread',
  'fast_move_guard',
  'fast_move_guard_bps',
  'fast_move_window_ms',
  'fast_move_settle_ms',
] as const;

const OPTIONAL_NUMBERS = [
  'fast_move_guard_bps',
  'fast_move_window_ms',
  'fast_move_settle_ms',
] as const;
const OPTIONAL_TEXT = ['quote_mode', 'worst_spread', 'fast_move_guard'] as const;

export const initialForm = (wallet: string): Form => ({
  market: 'BTC',
  long_exchange: 'hyperliquid',
  long_wallet: wallet,
  short_exchange: 'paradex',
  short_wallet: wallet,
  maker_leg: 'long',
  execution_type: 'maker_taker',
  spread_type: 'absolute',
  spread_condition: 'gte',
  target_spread: '',
  size_type: 'base',
  target_size: '',
  max_slippage: '0.001',
  quote_mode: '',
  worst_spread: '',
  fast_move_guard: '',
  fast_move_guard_bps: '',
  fast_move_window_ms: '',
  fast_move_settle_ms: '',
});

/** The create body: optional fields only when given; a number field as a number when it reads as one. */
export function requestOf(form: Form): CreateTradeRequest {
  const request: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = form[field].trim();
    if (
      (OPTIONAL_TEXT as readonly string[]).includes(field) ||
      (OPTIONAL_NUMBERS as readonly string[]).includes(field)
    ) {
      if (value === '') {
        continue;
      }
    }
    request[field] =
      (OPTIONAL_NUMBERS as readonly string[]).includes(field) &&
      value !== '' &&
      Number.isFinite(Number(value))
        ? Number(value)
        : value;
  }
  return request as unknown as CreateTradeRequest;
}

export const DECIMAL = /^-?\d+(\.\d+)?$/;

export const newIdempotencyKey = () => `console-${crypto.randomUUID()}`;
