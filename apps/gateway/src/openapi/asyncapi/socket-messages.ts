import { schemaRef } from './socket-schemas';

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

/** One message per frame, with an example each. */
export const SOCKET_MESSAGES = {
  AuthRequest: message('AuthRequest', 'authenticate (browsers), or renew a JWT', {
    op: 'auth',
    api_key: 'sts_live_...',
  }),
  SubscribeRequest: {
    ...message('SubscribeRequest', "subscribe to one trade or all the caller's", {
      op: 'subscribe',
      id: 1,
      subscription: 'trades',
      params: { trade_id: TRADE_ID },
    }),
    examples: [
      {
        name: 'SubscribeRequestExample',
        payload: { op: 'subscribe', id: 1, subscription: 'trades', params: { trade_id: TRADE_ID } },
      },
      {
        name: 'SubscribeFillsExample',
        summary: "one trade's fills, replaying its log from sequence 1 first",
        payload: {
          op: 'subscribe',
          id: 2,
          subscription: 'fills',
          params: { trade_id: TRADE_ID, from_sequence: 1 },
        },
      },
    ],
  },
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
    data: {
      filled_size: '0.01',
      target_size: '0.01',
      residual_unhedged: '0.00095',
      residual_unwound: '0.00095',
    },
  }),
  TradeFillEvent: message(
    'TradeFillEvent',
    "a fill entry of a trade's execution log (subscription `fills`), replayed or live",
    {
      type: 'fill',
      trade_id: TRADE_ID,
      sequence: 4,
      event_type: 'hedge_filled',
      created_at: AT,
      data: {
        exchange: 'paradex',
        side: 'sell',
        price: '65010.5',
        size: '0.002',
        order_id: 'px-1842',
        timestamp_ms: 1767605400000,
        client_order_id: 'sts-8f14e45f-h-1',
      },
    },
  ),
  MaintenanceEvent: message(
    'MaintenanceEvent',
    'maintenance or kill switch; to every socket, and right after `authenticated` one per switch in force (event_id `state-<exchange>-<updated_at ms>`; keep the latest updated_at per exchange)',
    {
      type: 'event',
      event: 'maintenance',
      event_id: '5d7a1c2e-9f80-4b1a-a3c2-7e6d5b4a3f21',
      exchange: 'paradex',
      enabled: true,
      reason: 'venue upgrade',
      updated_by: 'op-17',
      updated_at: AT,
      timestamp: AT,
    },
  ),
};
