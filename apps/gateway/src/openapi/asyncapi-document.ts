import { TRADE_LIFECYCLE_EVENTS, TRADE_STATUSES } from '@sts/domain';

/**
 * AsyncAPI 3.1 description of the notifier's WebSocket (decisions section 5,
 * apps/notifier/README.md "Protocol" and "Close codes"). Served by the gateway
 * at /api/v1/asyncapi.json and kept in apps/gateway/asyncapi.json; a spec
 * validates it with @asyncapi/parser and checks the file is up to date.
 */
type Schema = Record<string, unknown>;

const msgRef = (name: string) => ({ $ref: `#/components/messages/${name}` });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
});

const REQUEST_ID: Schema = {
  description: 'optional; echoed on the answer',
  oneOf: [{ type: 'string', maxLength: 64 }, { type: 'integer' }],
};
const TRADE_PARAMS: Schema = {
  type: 'object',
  description: 'with trade_id: one trade; without: every trade of the caller, present and future',
  properties: { trade_id: { type: 'string', format: 'uuid' } },
  additionalProperties: false,
};
/** Params as the client sent them, echoed (unsubscribe is idempotent and checks no id). */
const ECHOED_PARAMS: Schema = {
  type: 'object',
  description: 'the params of the message answered, as sent',
  properties: { trade_id: { type: 'string' } },
};
const LIFECYCLE_EVENTS = [...TRADE_LIFECYCLE_EVENTS];

const schemas: Record<string, Schema> = {
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
      subscription: { const: 'trades' },
      params: TRADE_PARAMS,
    },
    ['op', 'subscription'],
  ),
  UnsubscribeRequest: object(
    {
      op: { const: 'unsubscribe' },
      id: REQUEST_ID,
      subscription: { const: 'trades' },
      params: TRADE_PARAMS,
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
      subscription: { const: 'trades' },
      params: TRADE_PARAMS,
      status: {
        type: 'string',
        description: "single-trade subscriptions: the trade's status when it took effect",
      },
    },
    ['type', 'subscription', 'params'],
  ),
  Unsubscribed: object(
    {
      type: { const: 'unsubscribed' },
      id: REQUEST_ID,
      subscription: { const: 'trades' },
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
        description: "the worker's details: failure_reason, filled_size, pause reason...",
      },
    },
    ['type', 'event', 'event_id', 'trade_id', 'status', 'timestamp', 'data'],
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

const message = (name: string, summary: string, example: Record<string, unknown>) => ({
  name,
  title: name,
  summary,
  contentType: 'application/json',
  payload: schemaRef(name),
  examples: [{ name: `${name}Example`, payload: example }],
});

const TRADE_ID = '8f14e45f-ceea-467a-9575-6c3f1b2a9e01';
const AT = '2026-01-05T09:30:00.000Z';

const messages = {
  AuthRequest: message('AuthRequest', 'authenticate (browsers), or renew a JWT', {
    op: 'auth',
    api_key: 'sts_live_...',
  }),
  SubscribeRequest: message('SubscribeRequest', "subscribe to one trade or all the caller's", {
    op: 'subscribe',
    id: 1,
    subscription: 'trades',
    params: { trade_id: TRADE_ID },
  }),
  UnsubscribeRequest: message('UnsubscribeRequest', 'unsubscribe (idempotent)', {
    op: 'unsubscribe',
    subscription: 'trades',
    params: { trade_id: TRADE_ID },
  }),
  PingRequest: message('PingRequest', 'application-level ping', { op: 'ping', id: 'p1' }),
  Authenticated: message('Authenticated', 'credentials accepted', {
    type: 'authenticated',
    user_id: 'user-1',
    method: 'api_key',
    expires_at: AT,
  }),
  Subscribed: message('Subscribed', 'subscription in effect; held events follow', {
    type: 'subscribed',
    id: 1,
    subscription: 'trades',
    params: { trade_id: TRADE_ID },
    status: 'active',
  }),
  Unsubscribed: message('Unsubscribed', 'subscription ended', {
    type: 'unsubscribed',
    subscription: 'trades',
    params: { trade_id: TRADE_ID },
  }),
  Pong: message('Pong', 'answer to ping', { type: 'pong', id: 'p1', timestamp: AT }),
  Error: message('Error', 'a refused message; the socket stays open', {
    type: 'error',
    id: 1,
    error: 'trade not found',
    code: 'trade_not_found',
    op: 'subscribe',
    params: { trade_id: TRADE_ID },
  }),
  TradeLifecycleEvent: message('TradeLifecycleEvent', 'a status transition of a trade', {
    type: 'event',
    event: 'trade.completed',
    event_id: '2b0f8d1e-3c55-4a7e-9b51-0c7e0e4f6a11',
    trade_id: TRADE_ID,
    status: 'completed',
    timestamp: AT,
    data: { filled_size: '0.01' },
  }),
  MaintenanceEvent: message('MaintenanceEvent', 'maintenance or kill switch; to every socket', {
    type: 'event',
    event: 'maintenance',
    event_id: '5d7a1c2e-9f80-4b1a-a3c2-7e6d5b4a3f21',
    exchange: 'paradex',
    enabled: true,
    reason: 'venue upgrade',
    updated_by: 'op-17',
    updated_at: AT,
    timestamp: AT,
  }),
};

const CLOSE_CODES = `
Close codes (the last three digits of a 4xxx code echo the HTTP status a REST client would get;
the close reason is the machine code):

| code | reason | when | client should |
| --- | --- | --- | --- |
| 1001 | going_away | replica shutting down | reconnect, resubscribe |
| 1006 | | no answer to two server pings in a row | reconnect |
| 1009 | | client message larger than the limit (16 KiB by default) | fix the client |
| 1011 | service_unavailable | first-message credentials could not be checked | retry with backoff |
| 4001 | unauthorized / auth_timeout | bad credentials, first message not auth, or none within 5 s | fix credentials |
| 4003 | insufficient_scope / ip_not_allowed | credentials valid but not allowed | use a key with trades:read |
| 4008 | slow_consumer | unsent bytes over the bound | read faster, reconnect, rebuild from GET /api/v1/trades |
| 4009 | credentials_revoked / credentials_expired | key revoked or expired, or JWT expired, while connected | get new credentials |

An upgrade with bad header credentials is refused with the gateway's HTTP answer:
401 unauthorized, 403 insufficient_scope or ip_not_allowed, 503 service_unavailable with Retry-After.`;

export const ASYNCAPI_DOCUMENT = {
  asyncapi: '3.1.0',
  info: {
    title: 'Spread trading events (notifier WebSocket)',
    version: 'v1',
    description:
      'Lifecycle and maintenance events of the spread trading service, pushed over one WebSocket. ' +
      'Authenticate with the X-API-Key (or Authorization: Bearer) header on the upgrade, or with an ' +
      '`auth` message within 5 s of opening. Scope trades:read. After a reconnect, rebuild state with ' +
      'GET /api/v1/trades/{tradeId}.\n' +
      CLOSE_CODES,
  },
  defaultContentType: 'application/json',
  servers: {
    local: {
      host: 'localhost:3001',
      protocol: 'ws',
      description: 'the notifier of a local fleet (npm start)',
      security: [{ $ref: '#/components/securitySchemes/apiKey' }],
    },
  },
  channels: {
    notifications: {
      address: '/api/v1/ws',
      title: 'notifier socket',
      description: 'one socket per client; every message below travels on it',
      messages: {
        AuthRequest: msgRef('AuthRequest'),
        SubscribeRequest: msgRef('SubscribeRequest'),
        UnsubscribeRequest: msgRef('UnsubscribeRequest'),
        PingRequest: msgRef('PingRequest'),
        Authenticated: msgRef('Authenticated'),
        Subscribed: msgRef('Subscribed'),
        Unsubscribed: msgRef('Unsubscribed'),
        Pong: msgRef('Pong'),
        Error: msgRef('Error'),
        TradeLifecycleEvent: msgRef('TradeLifecycleEvent'),
        MaintenanceEvent: msgRef('MaintenanceEvent'),
      },
    },
  },
  operations: Object.fromEntries(
    [
      ['sendAuth', 'receive', 'AuthRequest', 'the client authenticates'],
      ['sendSubscribe', 'receive', 'SubscribeRequest', 'the client subscribes'],
      ['sendUnsubscribe', 'receive', 'UnsubscribeRequest', 'the client unsubscribes'],
      ['sendPing', 'receive', 'PingRequest', 'the client pings'],
      ['receiveAuthenticated', 'send', 'Authenticated', 'credentials accepted'],
      ['receiveSubscribed', 'send', 'Subscribed', 'a subscription took effect'],
      ['receiveUnsubscribed', 'send', 'Unsubscribed', 'a subscription ended'],
      ['receivePong', 'send', 'Pong', 'answer to a ping'],
      ['receiveError', 'send', 'Error', 'a refused message'],
      ['receiveTradeLifecycleEvent', 'send', 'TradeLifecycleEvent', 'a trade changed status'],
      ['receiveMaintenanceEvent', 'send', 'MaintenanceEvent', 'maintenance or kill switch'],
    ].map(([id, action, name, summary]) => [
      id,
      {
        action,
        summary,
        channel: { $ref: '#/channels/notifications' },
        messages: [{ $ref: `#/channels/notifications/messages/${name}` }],
      },
    ]),
  ),
  components: {
    securitySchemes: {
      apiKey: {
        type: 'httpApiKey',
        name: 'X-API-Key',
        in: 'header',
        description: 'on the upgrade request, or as `api_key` in the first message',
      },
      jwt: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Authorization header on the upgrade, or `token` in the first message',
      },
    },
    schemas,
    messages,
  },
};
