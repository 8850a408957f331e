import type { Principal } from '@sts/auth';
import type { Envelope, MaintenanceChanged, TradeFill, TradeLifecycle } from '@sts/contracts';
import type { ErrorCode } from '@sts/platform';
import type { ClientOp, RequestId } from './client-messages';

/**
 * Server frames (decisions section 5). Replies are built per request; events
 * are serialized once per NATS message into a Buffer that every recipient's
 * socket sends as it is.
 */
export type ServerReply = Record<string, unknown> & {
  type: 'authenticated' | 'subscribed' | 'unsubscribed' | 'pong' | 'error';
};

const withId = (id: RequestId | undefined): { id?: RequestId } => (id === undefined ? {} : { id });

const paramsOf = (tradeId: string | undefined) =>
  tradeId === undefined ? {} : { trade_id: tradeId };

export const authenticatedReply = (principal: Principal, id?: RequestId): ServerReply => ({
  type: 'authenticated',
  ...withId(id),
  user_id: principal.userId,
  method: principal.method,
  expires_at: principal.expiresAt.toISOString(),
});

/** `status` is the trade's status when the subscription took effect (single-trade only). */
export const subscribedReply = (
  tradeId: string | undefined,
  status: string | undefined,
  id?: RequestId,
): ServerReply => ({
  type: 'subscribed',
  ...withId(id),
  subscription: 'trades',
  params: paramsOf(tradeId),
  ...(status === undefined ? {} : { status }),
});

export const unsubscribedReply = (tradeId: string | undefined, id?: RequestId): ServerReply => ({
  type: 'unsubscribed',
  ...withId(id),
  subscription: 'trades',
  params: paramsOf(tradeId),
});

/** A fills subscription took effect; `params` echo the request's (trade_id, from_sequence). */
export const fillsSubscribedReply = (
  tradeId: string | undefined,
  fromSequence: number | undefined,
  id?: RequestId,
): ServerReply => ({
  type: 'subscribed',
  ...withId(id),
  subscription: 'fills',
  params: {
    ...paramsOf(tradeId),
    ...(fromSequence === undefined ? {} : { from_sequence: fromSequence }),
  },
});

export const fillsUnsubscribedReply = (
  tradeId: string | undefined,
  id?: RequestId,
): ServerReply => ({
  type: 'unsubscribed',
  ...withId(id),
  subscription: 'fills',
  params: paramsOf(tradeId),
});

export const pongReply = (id?: RequestId): ServerReply => ({
  type: 'pong',
  ...withId(id),
  timestamp: new Date().toISOString(),
});

export interface ErrorContext {
  id?: RequestId;
  op?: ClientOp;
  tradeId?: string;
  /** For service_unavailable: the dependency that could not be reached. */
  reason?: string;
}

export const errorReply = (
  code: ErrorCode,
  error: string,
  context: ErrorContext = {},
): ServerReply => ({
  type: 'error',
  ...withId(context.id),
  error,
  code,
  ...(context.op ? { op: context.op } : {}),
  ...(context.tradeId === undefined ? {} : { params: { trade_id: context.tradeId } }),
  ...(context.reason === undefined ? {} : { reason: context.reason }),
});

/** Everything a client needs to rebuild the trade's status; `event_id` deduplicates. */
export const lifecycleFrame = (message: Envelope<TradeLifecycle>): Buffer =>
  Buffer.from(
    JSON.stringify({
      type: 'event',
      event: message.payload.event,
      event_id: message.message_id,
      trade_id: message.payload.trade_id,
      status: message.payload.status,
      timestamp: message.payload.timestamp,
      data: message.payload.data,
    }),
  );

/**
 * Maintenance and the kill switch (`exchange` = `_kill_switch`) go to every
 * connection with the fields of a GET /api/v1/maintenance entry.
 */
export const maintenanceFrame = (message: Envelope<MaintenanceChanged>): Buffer =>
  switchFrame(message.message_id, message.payload);

/**
 * A switch in force when a socket authenticates, in the same frame. Its
 * event_id names the state (`state-<exchange>-<updated_at ms>`): a client
 * keeps, per exchange, the frame with the latest updated_at.
 */
export const switchInForceFrame = (state: MaintenanceChanged): Buffer =>
  switchFrame(`state-${state.exchange}-${Date.parse(state.updated_at)}`, state);

const switchFrame = (eventId: string, state: MaintenanceChanged): Buffer =>
  Buffer.from(
    JSON.stringify({
      type: 'event',
      event: 'maintenance',
      event_id: eventId,
      exchange: state.exchange,
      enabled: state.enabled,
      reason: state.reason,
      updated_by: state.updated_by,
      updated_at: state.updated_at,
      timestamp: state.updated_at,
    }),
  );

/**
 * One fill entry of a trade's execution log, replayed or live: the same
 * sequence, created_at and data as GET /api/v1/trades/{id}/events gives it.
 */
export const fillFrame = (fill: Omit<TradeFill, 'user_id'>): Buffer =>
  Buffer.from(
    JSON.stringify({
      type: 'fill',
      trade_id: fill.trade_id,
      sequence: fill.sequence,
      event_type: fill.event_type,
      created_at: fill.created_at,
      data: fill.data,
    }),
  );
