import { envelope, MessageValidationError, type Envelope } from './envelope';
import { integerField, objectOf, oneOf, stringField } from './guards';

/**
 * A fill entry of a trade's execution log, pushed after it committed (issue 34,
 * "Fills pushed live"). The worker writes it to the outbox in the statement
 * that appends the entry, so it carries the log's own sequence number and
 * created_at; the notifier pushes it to the owner's sockets subscribed to fills.
 */
export const TRADE_FILL = 'trade.fill';

/** The execution-log entries that are pushed: what a trader sees filled, on either leg. */
export const FILL_EVENT_TYPES = ['maker_fill', 'hedge_filled', 'hedge_outcome'] as const;
export type FillEventType = (typeof FILL_EVENT_TYPES)[number];

/**
 * One subject per trade under the events stream, apart from the lifecycle
 * subjects (`events.trades.>`), so lifecycle consumers never see fills.
 */
export const tradeFillSubject = (prefix: string, tradeId: string): string =>
  `${prefix}.events.fills.${tradeId}`;

/**
 * The message id of the entry `sequence` of a trade: one per log entry, so
 * JetStream drops a second publication of it (a relay's retry).
 */
export const tradeFillMessageId = (tradeId: string, sequence: number | string): string =>
  `fill-${tradeId}-${sequence}`;

export interface TradeFill {
  trade_id: string;
  user_id: string;
  /** The entry's sequence number in the trade's execution log. */
  sequence: number;
  event_type: FillEventType;
  /** When the entry was logged (ISO 8601 UTC, milliseconds), as GET .../events says. */
  created_at: string;
  /** The log entry's data, as it was logged. */
  data: Record<string, unknown>;
}

export function parseTradeFill(value: unknown): TradeFill {
  const record = objectOf(TRADE_FILL, value);
  const data = record['data'];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new MessageValidationError(TRADE_FILL, 'data must be an object');
  }
  const sequence = integerField(TRADE_FILL, record, 'sequence');
  if (sequence < 1) {
    throw new MessageValidationError(TRADE_FILL, 'sequence must be positive');
  }
  return {
    trade_id: stringField(TRADE_FILL, record, 'trade_id'),
    user_id: stringField(TRADE_FILL, record, 'user_id'),
    sequence,
    event_type: oneOf(TRADE_FILL, record, 'event_type', FILL_EVENT_TYPES),
    created_at: stringField(TRADE_FILL, record, 'created_at'),
    data: data as Record<string, unknown>,
  };
}

/** What the database alone knows of a fill's message: set by the statement that logs the entry. */
export type TradeFillFromLog = 'sequence' | 'created_at';

/** A `trade.fill` message before its entry is logged (tradeFillDraft). */
export type TradeFillDraft = Envelope<Omit<TradeFill, TradeFillFromLog>>;

/**
 * The `trade.fill` message of a log entry as the writer builds it, the one
 * place its envelope is built: the append statement that logs the entry adds
 * only what it alone knows, the entry's sequence (and with it the message id,
 * tradeFillMessageId) and created_at (also the envelope's occurred_at).
 */
export function tradeFillDraft(
  fill: Omit<TradeFill, TradeFillFromLog>,
  correlationId: string,
): TradeFillDraft {
  return envelope(TRADE_FILL, fill, {
    messageId: tradeFillMessageId(fill.trade_id, 'pending'),
    correlationId,
    occurredAt: new Date(0),
  });
}

export const isFillEventType = (eventType: string): eventType is FillEventType =>
  (FILL_EVENT_TYPES as readonly string[]).includes(eventType);
