import { TRADE_LIFECYCLE_EVENTS, TRADE_STATUSES } from '@sts/domain';

/** The WebSocket's frames as JSON Schema (AsyncAPI components). */
export type Schema = Record<string, unknown>;

export const msgRef = (name: string) => ({ $ref: `#/components/messages/${name}` });
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
});

const REQUEST_ID: Schema = {
  description: 'optional; echoed on the answer',
  oneOf: [{ type: 'string', maxLength: 64 }, { type: 'integer' }],
};
const SUBSCRIPTION: Schema = {
  type: 'string',
  enum: ['trades', 'fills'],
  description:
    "`trades`: lifecycle events; `fills` (opt-in): the execution log's maker_fill, hedge_filled and hedge_outcome entries as they are logged",
};
const FROM_SEQUENCE: Schema = {
  type: 'integer',
  minimum: 0,
  description:
    'fills with a trade_id only: first send every fill entry already logged with sequence >= from_sequence (from the execution log), then the live ones; each sequence once, none missing. Resume with the last sequence seen + 1',
};
const TRADE_PARAMS: Schema = {
  type: 'object',
  description: 'with trade_id: one trade; without: every trade of the caller, present and future',
  properties: { trade_id: { type: 'string', format: 'uuid' }, from_sequence: FROM_SEQUENCE },
  additionalProperties: false,
};
const UNSUBSCRIBE_PARAMS: Schema = {
  ...TRADE_PARAMS,
  properties: { trade_id: { type: 'string', format: 'uuid' } },
};
const FILL_EVENT_TYPES = ['maker_fill', 'hedge_filled', 'hedge_outcome'];
/** Params as the client sent them, echoed (unsubscribe is idempotent and checks no id). */
const ECHOED_PARAMS: Schema = {
  type: 'object',
  description: 'the params of the message answered, as sent',
  properties: { trade_id: { type: 'string' }, from_sequence: { type: 'integer' } },
};
const LIFECYCLE_EVENTS = [...TRADE_LIFECYCLE_EVENTS];

/** The frames both ways, as JSON Schema. */
export const SOCKET_SCHEMAS: Record<string, Schema> = {
  AuthRequest: {
    ...object(
      {
        op: { const: 'auth' },
        id: REQUEST_ID,
        api_key: { type: 'string', description: 'an API key with trades:read' },
        token: { type: 'string', description: 'a browser-session JWT' },
      },
      ['op'],
    ),
    description:
      'first message within 5 s when the upgrade carried no credentials; later, a JWT renewal for the same user',
  },
  SubscribeRequest: object(
    {
      op: { const: 'subscribe' },
      id: REQUEST_ID,
      subscription: SUBSCRIPTION,
      params: TRADE_PARAMS,
    },
    ['op', 'subscription'],
  ),
  UnsubscribeRequest: object(
    {
      op: { const: 'unsubscribe' },
      id: REQUEST_ID,
      subscription: SUBSCRIPTION,
      params: UNSUBSCRIBE_PARAMS,
    },
    ['op', 'subscription'],
  ),
  PingRequest: object({ op: { const: 'ping' }, id: REQUEST_ID }, ['op']),
  Authenticated: object(
    {
      type: { const: 'authenticated' },
      id: REQUEST_ID,
      user_id: { type: 'string' },
      method: { type: 'string', enum: ['api_key', 'jwt'] },
      expires_at: { type: 'string', format: 'date-time' },
    },
    ['type', 'user_id', 'method', 'expires_at'],
  ),
  Subscribed: object(
    {
      type: { const: 'subscribed' },
      id: REQUEST_ID,
      subscription: SUBSCRIPTION,
      params: TRADE_PARAMS,
      status: {
        type: 'string',
        description:
          "single-trade `trades` subscriptions: the trade's status when it took effect (fills: absent)",
      },
    },
    ['type', 'subscription', 'params'],
  ),
  Unsubscribed: object(
    {
      type: { const: 'unsubscribed' },
      id: REQUEST_ID,
      subscription: SUBSCRIPTION,
      params: ECHOED_PARAMS,
    },
    ['type', 'subscription', 'params'],
  ),
  Pong: object(
    { type: { const: 'pong' }, id: REQUEST_ID, timestamp: { type: 'string', format: 'date-time' } },
    ['type', 'timestamp'],
  ),
  Error: object(
    {
      type: { const: 'error' },
      id: REQUEST_ID,
      error: { type: 'string' },
      code: {
        type: 'string',
        enum: [
          'invalid_request',
          'trade_not_found',
          'unauthorized',
          'insufficient_scope',
          'ip_not_allowed',
          'rate_limited',
          'service_unavailable',
        ],
      },
      op: { type: 'string', enum: ['auth', 'subscribe', 'unsubscribe', 'ping'] },
      params: ECHOED_PARAMS,
      reason: { type: 'string', description: 'service_unavailable: the dependency, e.g. postgres' },
    },
    ['type', 'error', 'code'],
  ),
  TradeLifecycleEvent: object(
    {
      type: { const: 'event' },
      event: { type: 'string', enum: LIFECYCLE_EVENTS },
      event_id: {
        type: 'string',
        description: 'the same event seen twice (reconnect, two sockets) carries the same id',
      },
      trade_id: { type: 'string', format: 'uuid' },
      status: {
        type: 'string',
        description: "the trade's status after the transition",
        enum: [...TRADE_STATUSES],
      },
      timestamp: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        description:
          "the worker's details. trade.started: target_size, size_type. trade.paused: reason, exchange. trade.completed, trade.canceled and trade.failed: filled_size, target_size, residual_unhedged (maker fills never hedged, base units: below the hedge venue's lot or minimums, or on a failed trade what its hedge left) and residual_unwound (what the reduce-only unwind on the maker venue took back; residual_unhedged less residual_unwound stays one-sided in the maker wallet); trade.failed adds failure_reason and unhedged_size",
      },
    },
    ['type', 'event', 'event_id', 'trade_id', 'status', 'timestamp', 'data'],
  ),
  TradeFillEvent: object(
    {
      type: { const: 'fill' },
      trade_id: { type: 'string', format: 'uuid' },
      sequence: {
        type: 'integer',
        minimum: 1,
        description:
          "the entry's sequence in the trade's execution log (GET /api/v1/trades/{tradeId}/events); a client that sees one twice drops it",
      },
      event_type: { type: 'string', enum: FILL_EVENT_TYPES },
      created_at: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        description: "the log entry's data, as GET /api/v1/trades/{tradeId}/events gives it",
      },
    },
    ['type', 'trade_id', 'sequence', 'event_type', 'created_at', 'data'],
  ),
  MaintenanceEvent: object(
    {
      type: { const: 'event' },
      event: { const: 'maintenance' },
      event_id: { type: 'string' },
      exchange: {
        type: 'string',
        description: 'an exchange id, `_system`, or `_kill_switch` for the global kill switch',
      },
      enabled: { type: 'boolean' },
      reason: { type: 'string' },
      updated_by: { type: 'string' },
      updated_at: { type: 'string', format: 'date-time' },
      timestamp: { type: 'string', format: 'date-time' },
    },
    ['type', 'event', 'event_id', 'exchange', 'enabled', 'reason', 'updated_at', 'timestamp'],
  ),
};
