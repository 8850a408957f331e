import { TRADE_STATUSES } from '@sts/domain';
import type { Schema } from './schema-helpers';
import { ref, text, decimal, timestamp, object, EXCHANGE } from './schema-helpers';
import { TRADE_COSTS_SCHEMAS } from './trade-costs-schemas';

const fastMoveGuardStats = object(
  {
    mode: text('guard mode', { enum: ['shadow', 'on', 'off'] }),
    triggers: { type: 'integer' },
    holds: { type: 'integer' },
    hold_ms_total: { type: 'integer' },
    orders_canceled: { type: 'integer' },
    fills_after_trigger: { type: 'integer' },
    adverse_fills: { type: 'integer' },
    max_move_bps: { type: 'number' },
  },
  [],
  {
    description:
      'written on every trade when it ends, whatever its mode (decisions section 6); null before. With mode off the guard watched nothing: every count is 0 and max_move_bps is 0 (no move measured)',
  },
);

const trade = object(
  {
    trade_id: text('assigned at creation', { format: 'uuid' }),
    user_id: text('owner'),
    market: text('canonical market symbol', { examples: ['BTC'] }),
    long_exchange: EXCHANGE,
    long_wallet: text('wallet address of the long leg'),
    short_exchange: EXCHANGE,
    short_wallet: text('wallet address of the short leg'),
    target_spread: decimal('in units of spread_type'),
    spread_condition: text('how the spread compares with target_spread', {
      enum: ['gte', 'gt', 'lte', 'lt', 'eq'],
    }),
    target_size: decimal('total size to fill, in size_type units'),
    filled_size: decimal('filled so far, in size_type units'),
    execution_type: text('execution type', { enum: ['maker_taker'] }),
    maker_leg: text('the leg quoted as a resting order', { enum: ['long', 'short'] }),
    max_slippage: decimal('fraction of price the hedge may pay (0.001 = 0.1 %)'),
    status: ref('TradeStatus'),
    rate_budget: { type: 'integer', description: 'requests per second on the maker exchange' },
    hedge_rate_budget: {
      type: 'integer',
      description: 'present only when the hedge exchange has a shared per-account limit',
    },
    created_at: timestamp('creation time'),
    updated_at: timestamp('last change'),
    completed_at: { ...timestamp('set on every terminal status'), type: ['string', 'null'] },
    size_type: text('unit of sizes', { enum: ['base', 'notional'] }),
    spread_type: text('unit of spreads', { enum: ['absolute', 'percentage', 'bps', 'ticks'] }),
    failure_reason: text('empty unless rejected or failed'),
    residual_unhedged: decimal(
      'maker fills the trade could not hedge, in the trade\'s base units (decisions section 2): below the hedge venue\'s lot or minimums (or, on a failed trade, what its hedge left); "0" when none and while the trade runs. Written when the trade ends, whatever its status',
    ),
    residual_unwound: decimal(
      'of residual_unhedged, what the reduce-only IOC on the maker venue took back at the trade\'s end (execution log `unwind_outcome`); residual_unhedged less residual_unwound is one-sided exposure the trade left in the maker wallet. "0" when none',
    ),
    fast_move_guard_stats: { oneOf: [ref('FastMoveGuardStats'), { type: 'null' }] },
    quote_mode: text('present for aggressive trades', { enum: ['aggressive'] }),
    worst_spread: decimal('bound of the aggressive peg'),
    fast_move_guard: text('fast-move guard mode', { enum: ['shadow', 'on', 'off'] }),
    fast_move_guard_bps: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
    fast_move_window_ms: { type: 'integer', minimum: 50, maximum: 5000 },
    fast_move_settle_ms: { type: 'integer', minimum: 50, maximum: 10000 },
    long_mode: text('the long leg runs on the simulator (`paper`) or the venue itself (`live`)', {
      enum: ['paper', 'live'],
    }),
    short_mode: text('the short leg runs on the simulator (`paper`) or the venue itself (`live`)', {
      enum: ['paper', 'live'],
    }),
    costs: ref('TradeCosts'),
  },
  [
    'trade_id',
    'user_id',
    'market',
    'long_exchange',
    'long_wallet',
    'short_exchange',
    'short_wallet',
    'target_spread',
    'spread_condition',
    'target_size',
    'filled_size',
    'execution_type',
    'maker_leg',
    'max_slippage',
    'status',
    'rate_budget',
    'created_at',
    'updated_at',
    'completed_at',
    'size_type',
    'spread_type',
    'failure_reason',
    'residual_unhedged',
    'residual_unwound',
    'fast_move_guard_stats',
    'long_mode',
    'short_mode',
    'costs',
  ],
  { additionalProperties: false },
);

/** A trade and the answers of create, amend and cancel. */
export const TRADE_SCHEMAS: Record<string, Schema> = {
  TradeStatus: text('trade status (decisions section 3)', { enum: [...TRADE_STATUSES] }),
  Trade: trade,
  FastMoveGuardStats: fastMoveGuardStats,
  ...TRADE_COSTS_SCHEMAS,
  CreateTradeAccepted: object(
    {
      trade_id: text('the new trade', { format: 'uuid' }),
      status: text('always pending', { const: 'pending' }),
      rate_budget: { type: 'integer' },
      hedge_rate_budget: { type: 'integer' },
    },
    ['trade_id', 'status', 'rate_budget'],
    { additionalProperties: false },
  ),
  CreateTradeReplayed: object(
    {
      trade_id: text('the original trade', { format: 'uuid' }),
      status: ref('TradeStatus'),
      rate_budget: { type: 'integer' },
      hedge_rate_budget: { type: 'integer' },
      idempotent: { const: true },
    },
    ['trade_id', 'status', 'rate_budget', 'idempotent'],
    { additionalProperties: false },
  ),
  AmendmentSent: object(
    { status: { const: 'amendment_sent' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
  AmendmentPersisted: object(
    {
      status: { const: 'amendment_persisted' },
      trade_id: text('the trade', { format: 'uuid' }),
      warning: text('why it was not delivered at once'),
    },
    ['status', 'trade_id', 'warning'],
    { additionalProperties: false },
  ),
  TradeCanceled: object(
    { status: { const: 'canceled' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
  CancelSent: object(
    { status: { const: 'cancel_sent' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
  CancelAllAnswer: object(
    {
      trades: {
        type: 'array',
        description: "each live trade of the caller, oldest first, with DELETE's answer for it",
        items: object(
          {
            status: { enum: ['canceled', 'cancel_sent'] },
            trade_id: text('the trade', { format: 'uuid' }),
            http_status: { enum: [200, 202], description: 'the status DELETE answers for it' },
          },
          ['status', 'trade_id', 'http_status'],
          { additionalProperties: false },
        ),
      },
    },
    ['trades'],
    { additionalProperties: false },
  ),
};
