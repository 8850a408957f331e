import { SOCKET_MESSAGES } from './asyncapi/socket-messages';
import { msgRef, SOCKET_SCHEMAS } from './asyncapi/socket-schemas';

/**
 * AsyncAPI 3.1 description of the notifier's WebSocket (decisions section 5,
 * apps/notifier/README.md "Protocol" and "Close codes"). Served by the gateway
 * at /api/v1/asyncapi.json and kept in apps/gateway/asyncapi.json; a spec
 * validates it with @asyncapi/parser and checks the file is up to date.
 */
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
      'Lifecycle, fill and maintenance events of the spread trading service, pushed over one WebSocket. ' +
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
        TradeFillEvent: msgRef('TradeFillEvent'),
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
      ['receiveTradeFillEvent', 'send', 'TradeFillEvent', 'a fill was logged (subscription fills)'],
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
    schemas: SOCKET_SCHEMAS,
    messages: SOCKET_MESSAGES,
  },
};
