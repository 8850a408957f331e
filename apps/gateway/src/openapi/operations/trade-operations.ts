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
  fast_move_guard_stats: null,
  long_mode: 'paper',
  short_mode: 'paper',
};

/** Trades: create, read, amend, cancel, the execution log. */
export const TRADE_OPERATIONS: Record<string, OperationAnswers> = {
  'post /api/v1/trades': {
    operationId: 'createTrade',
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
    successes: [
      { status: 200, description: 'the trade', schema: ref('Trade'), example: TRADE_EXAMPLE },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
  'get /api/v1/trades/{tradeId}/events': {
    operationId: 'listTradeEvents',
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
