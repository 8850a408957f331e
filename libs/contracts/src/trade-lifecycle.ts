import { randomUUID } from 'node:crypto';
import {
  TRADE_LIFECYCLE_EVENTS,
  type TradeLifecycleEvent,
  type TradeTransition,
} from '@sts/domain';
import { envelope, type Envelope, MessageValidationError } from './envelope';
import { objectOf, oneOf, stringField } from './guards';

/** Lifecycle events pushed to WebSocket clients: the domain's list, one source of truth. */
export { TRADE_LIFECYCLE_EVENTS, type TradeLifecycleEvent };

export const TRADE_LIFECYCLE = 'trade.lifecycle';

/**
 * One subject per trade under the events stream. The owner travels in the
 * payload (user ids may contain dots, so they stay out of subjects).
 */
export const tradeLifecycleSubject = (prefix: string, tradeId: string): string =>
  `${prefix}.events.trades.${tradeId}`;
export const allTradeLifecycleSubjects = (prefix: string): string => `${prefix}.events.trades.>`;

export interface TradeLifecycle {
  event: TradeLifecycleEvent;
  trade_id: string;
  user_id: string;
  /** The trade's status after the transition. */
  status: string;
  /** When the transition happened (ISO 8601 UTC). */
  timestamp: string;
  /** Event details, e.g. failure_reason, filled_size, pause reason. */
  data: Record<string, unknown>;
}

export function parseTradeLifecycle(value: unknown): TradeLifecycle {
  const record = objectOf(TRADE_LIFECYCLE, value);
  const data = record['data'] ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new MessageValidationError(TRADE_LIFECYCLE, 'data must be an object');
  }
  return {
    event: oneOf(TRADE_LIFECYCLE, record, 'event', TRADE_LIFECYCLE_EVENTS),
    trade_id: stringField(TRADE_LIFECYCLE, record, 'trade_id'),
    user_id: stringField(TRADE_LIFECYCLE, record, 'user_id'),
    status: stringField(TRADE_LIFECYCLE, record, 'status'),
    timestamp: stringField(TRADE_LIFECYCLE, record, 'timestamp'),
    data: data as Record<string, unknown>,
  };
}

/** A lifecycle event ready for the outbox: its subject and its envelope. */
export interface TradeLifecycleMessage {
  subject: string;
  message: Envelope<TradeLifecycle>;
}

/**
 * The lifecycle event of a committed transition (the domain's transitionTrade),
 * or null when the transition is not shown to clients. The one builder for
 * every writer of a trade's status. A terminal event happens once per trade,
 * so its message id is fixed (JetStream drops a second publication); pauses
 * and resumes may repeat, each gets its own id.
 */
export function tradeLifecycleMessage(
  natsPrefix: string,
  transition: TradeTransition,
  change: {
    tradeId: string;
    userId: string;
    /** When the change was committed (the row's updated_at). */
    at: Date;
    correlationId: string;
    data?: Record<string, unknown>;
  },
): TradeLifecycleMessage | null {
  if (transition.event === null) {
    return null;
  }
  const { tradeId } = change;
  const lifecycle: TradeLifecycle = {
    event: transition.event,
    trade_id: tradeId,
    user_id: change.userId,
    status: transition.to,
    timestamp: change.at.toISOString(),
    data: change.data ?? {},
  };
  return {
    subject: tradeLifecycleSubject(natsPrefix, tradeId),
    message: envelope(TRADE_LIFECYCLE, lifecycle, {
      messageId: transition.setsCompletedAt
        ? `lifecycle-${tradeId}-${transition.to}`
        : `lifecycle-${tradeId}-${randomUUID()}`,
      correlationId: change.correlationId,
    }),
  };
}
