import type { OperationAnswers } from './answers';
import { ref, arrayOf, TRADE_ID, WALLET, AT, API_KEY_OR_JWT, WITH_BODY } from './answers';

const TRADE_EXAMPLE = {
  trade_id: TRADE_ID,
  user_id: 'user-1',
  market: 'BTC',
  long_exchange: 'hyperliquid',
  long_wallet: WALLET,
  short_exchange: 'paradex',
  short_wallet: WALLET,
  target_spread: '5',
  spread_condition: 'gte',
  target_size: '0.01',
  filled_size: '0.004',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
  status: 'active',
  rate_budget: 10,
  hedge_rate_budget: 5,
  created_at: AT,
  updated_at: AT,
  completed_at: null,
  size_type: 'base',
  spread_type: 'absolute',
  failure_reason: '',
  residual_unhedged: '0',
  residual_unwound: '0',
  fast_move_guard_stats: null,
  long_mode: 'paper',
  short_mode: 'paper',
  costs: {
    long: {
      filled_size: '0.004',
      avg_price: '65000',
      fees: [{ asset: 'USDC', amount: '0.039' }],
      fills: 1,
      fills_without_fee: 0,
    },
    short: {
      filled_size: '0.004',
      avg_price: '65006',
      fees: [{ asset: 'USD', amount: '0.0520048' }],
      fills: 1,
      fills_without_fee: 0,
    },
    realised_spread: '6',
    realised_spread_after_fees: '-16.7512',
    avg_hedge_slippage_bps: '0.769',
  },
};

/** Trades: create, read, amend, cancel, the execution log. */
export const TRADE_OPERATIONS: Record<string, OperationAnswers> = {
  'post /api/v1/trades': {
    operationId: 'createTrade',
    description:
      "Submits a two-legged spread trade and answers at once (202, `pending`); execution is asynchronous. One idempotency key is required: `X-Idempotency-Key`, else `Idempotency-Key`, else the body's `idempotency_key`; replaying a key answers 200 with the original trade and creates nothing. Scope trades:write.",
    requestExample: {
      market: 'BTC',
      long_exchange: 'hyperliquid',
      long_wallet: WALLET,
      short_exchange: 'paradex',
      short_wallet: WALLET,
      target_spread: '5',
      spread_condition: 'gte',
      target_size: '0.01',
      execution_type: 'maker_taker',
      maker_leg: 'long',
      max_slippage: '0.001',
      idempotency_key: 'btc-hl-paradex-0001',
    },
    successes: [
      {
        status: 202,
        description: 'accepted; execution starts asynchronously',
        schema: ref('CreateTradeAccepted'),
        example: { trade_id: TRADE_ID, status: 'pending', rate_budget: 10, hedge_rate_budget: 5 },
      },
      {
        status: 200,
        description: 'replayed idempotency key: the original trade, nothing created',
        schema: ref('CreateTradeReplayed'),
        example: { trade_id: TRADE_ID, status: 'active', rate_budget: 10, idempotent: true },
      },
    ],
    errors: [
      ...API_KEY_OR_JWT,
      ...WITH_BODY,
      'idempotency_key_required',
      'invalid_idempotency_key',
      'same_exchange',
      'market_not_tradeable',
      'credentials_not_linked',
      'maker_cap_exceeded',
      'risk_limit_exceeded',
      'rate_budget_exhausted',
      'system_maintenance',
      'exchange_maintenance',
      'kill_switch',
      'budget_unavailable',
    ],
  },
  'get /api/v1/trades': {
    operationId: 'listTrades',
    successes: [
      {
        status: 200,
        description:
          "the caller's 50 most recent trades, newest first; with `status`, `limit` or `before`, that page",
        schema: arrayOf('Trade'),
        example: [TRADE_EXAMPLE],
      },
    ],
    errors: [...API_KEY_OR_JWT, 'invalid_request', 'trade_not_found'],
  },
  'get /api/v1/trades/{tradeId}': {
    operationId: 'getTrade',
    description:
      "One trade of the caller. An unknown trade and another user's trade both answer 404 `trade not found`. Scope trades:read.",
    successes: [
      { status: 200, description: 'the trade', schema: ref('Trade'), example: TRADE_EXAMPLE },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
  'get /api/v1/trades/{tradeId}/events': {
    operationId: 'listTradeEvents',
    description:
      "The trade's durable execution log (fills, hedges, recovery, fast-move guard), ordered by `sequence`; poll incrementally with `after_sequence`, page on with `next_after_sequence` while `has_more`. Scope trades:read.",
    successes: [
      {
        status: 200,
        description:
          'the execution log, ordered by sequence: at most `limit` entries; `has_more` when more follow',
        schema: ref('TradeEvents'),
        example: {
          trade_id: TRADE_ID,
          events: [
            {
              sequence: 1,
              event_type: 'chunk_started',
              data: { target_size: '0.01', size_type: 'base' },
              worker_id: 'worker-a',
              created_at: AT,
            },
            {
              sequence: 2,
              event_type: 'hedge_sent',
              data: { exchange: 'paradex', side: 'sell', size: '0.004' },
              worker_id: 'worker-a',
              created_at: AT,
            },
          ],
          has_more: false,
        },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'invalid_request', 'trade_not_found'],
  },
  'patch /api/v1/trades/{tradeId}': {
    operationId: 'amendTrade',
    description:
      'Amends target size, target spread, slippage or units of a pending, active or paused trade; applied on the next quote cycle (200 `amendment_sent`, or 202 `amendment_persisted` when it cannot be delivered at once). At least one field; `spread_type` only with `target_spread`; `target_size` not below `filled_size`. Scope trades:write.',
    requestExample: { target_size: '0.02', target_spread: '4' },
    successes: [
      {
        status: 200,
        description: 'the owning worker acknowledged it; applied on the next quote cycle',
        schema: ref('AmendmentSent'),
        example: { status: 'amendment_sent', trade_id: TRADE_ID },
      },
      {
        status: 202,
        description: 'stored, not acknowledged within 500 ms; applied as soon as possible',
        schema: ref('AmendmentPersisted'),
        example: {
          status: 'amendment_persisted',
          trade_id: TRADE_ID,
          warning: 'the trade is not quoting now; the amendment applies when it does',
        },
      },
    ],
    errors: [
      ...API_KEY_OR_JWT,
      ...WITH_BODY,
      'trade_not_found',
      'trade_not_amendable',
      'risk_limit_exceeded',
      'system_maintenance',
      'exchange_maintenance',
    ],
  },
  'post /api/v1/trades/cancel-all': {
    operationId: 'cancelAllTrades',
    successes: [
      {
        status: 200,
        description:
          "every live trade of the caller (pending to recovering), oldest first, with DELETE's answer for it",
        schema: ref('CancelAllAnswer'),
        example: {
          trades: [
            { status: 'canceled', trade_id: TRADE_ID, http_status: 200 },
            {
              status: 'cancel_sent',
              trade_id: '0b6c0f9e-1f6d-4a1e-8d8e-6b5c2f1a9e3d',
              http_status: 202,
            },
          ],
        },
      },
    ],
    errors: [...API_KEY_OR_JWT],
  },
  'delete /api/v1/trades/{tradeId}': {
    operationId: 'cancelTrade',
    description:
      'Cancels a trade: a pending one at once (200 `canceled`), an executing one by halting quoting and canceling its open orders (202 `cancel_sent`). Filled positions stay open. Allowed during maintenance. Scope trades:write.',
    successes: [
      {
        status: 200,
        description: 'the trade was still pending: canceled directly',
        schema: ref('TradeCanceled'),
        example: { status: 'canceled', trade_id: TRADE_ID },
      },
      {
        status: 202,
        description: 'executing (canceled within seconds), or already terminal (no-op)',
        schema: ref('CancelSent'),
        example: { status: 'cancel_sent', trade_id: TRADE_ID },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
};
