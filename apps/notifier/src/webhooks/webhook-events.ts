import {
  decodeLogData,
  type LogDataOf,
  type TradeFill,
  type TradeLifecycle,
  type TradeLifecycleEvent,
} from '@sts/contracts';
import { KILL_SWITCH_SCOPE } from '@sts/domain';
import type { WebhookDelivery, WebhookEventType } from '@sts/persistence';
import type { StreamEvent } from '../stream-event';

/** The Standard Webhooks body `{type, timestamp, data}` of every delivery. */
export type WebhookPayload = WebhookDelivery['payload'];

/** What the events leave out and the trade's row knows, read when an endpoint wants the event. */
export interface TradeFacts {
  market: string;
  targetSize: string;
  sizeType: string;
  filledSize: string;
  hedgeExchange: string;
}

/** `trade.status_changed`: every lifecycle event of a trade. */
export interface TradeStatusChangedData {
  trade_id: string;
  /** Null only when the trade's row cannot be read. */
  market: string | null;
  /** The lifecycle event: `trade.started|completed|failed|canceled|paused|resumed`. */
  event: TradeLifecycleEvent;
  /** The trade's status after the change. */
  status: string;
  /** The event's filled size, else the trade's when the event was read. */
  filled_size: string | null;
  target_size: string | null;
  /** `base` (target and filled sizes in the market's token) or `notional` (in USD). */
  size_type: string | null;
  failure_reason: string | null;
  /** The lifecycle event's own data, as the WebSocket shows it (pause reason, residuals...). */
  details: Record<string, unknown>;
}

/** `trade.failed`: a trade failed or was rejected, with what it left unhedged. */
export interface TradeFailedData {
  trade_id: string;
  market: string | null;
  /** `failed`, or `rejected` by the pre-flight checks. */
  status: string;
  failure_reason: string;
  /** Size filled on the maker leg and never hedged ("0" for a rejection); null when not reported. */
  unhedged_size: string | null;
  /** Where the unhedged size would have been hedged. */
  hedge_exchange: string | null;
  filled_size: string | null;
  target_size: string | null;
  size_type: string | null;
}

/** `trade.fill`: a maker or hedge fill, as the execution log has it. */
export interface TradeFillData {
  trade_id: string;
  market: string | null;
  /** The entry's sequence in the trade's execution log (GET /api/v1/trades/{id}/events). */
  sequence: number;
  leg: 'maker' | 'hedge';
  event_type: 'maker_fill' | 'hedge_filled';
  exchange: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  fee: string | null;
  fee_asset: string | null;
  liquidity: 'maker' | 'taker';
  order_id: string;
  /** When the venue filled it (ISO 8601). */
  filled_at: string;
}

/** `system.kill_switch`: the operators' global kill switch flipped. */
export interface KillSwitchData {
  enabled: boolean;
  reason: string;
  updated_at: string;
}

/** `system.maintenance`: maintenance of the whole system (`_system`) or of one venue. */
export interface MaintenanceData {
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_at: string;
}

/** Where a stream event's webhook events go: the owner's endpoints, or everyone's (null). */
export interface WebhookRoute {
  types: WebhookEventType[];
  userId: string | null;
  tradeId: string | null;
}

/** The webhook event types a stream event makes, in the order they are owed, and whose they are. */
export function routeOf(event: StreamEvent): WebhookRoute {
  switch (event.kind) {
    case 'lifecycle': {
      const { user_id: userId, trade_id: tradeId, event: lifecycle } = event.message.payload;
      const types: WebhookEventType[] =
        lifecycle === 'trade.failed'
          ? ['trade.status_changed', 'trade.failed']
          : ['trade.status_changed'];
      return { types, userId, tradeId };
    }
    case 'fill': {
      const { user_id: userId, trade_id: tradeId, event_type: eventType } = event.message.payload;
      // hedge_outcome summarises hedge fills already sent: no fill of its own.
      const types: WebhookEventType[] = eventType === 'hedge_outcome' ? [] : ['trade.fill'];
      return { types, userId, tradeId };
    }
    case 'maintenance': {
      const type =
        event.message.payload.exchange === KILL_SWITCH_SCOPE
          ? 'system.kill_switch'
          : 'system.maintenance';
      return { types: [type], userId: null, tradeId: null };
    }
  }
}

/**
 * The body of the webhook event `type` that `event` makes (a type routeOf
 * gave it); `trade`: its trade's row, null for a system event or a row that
 * cannot be read. Throws on a fill whose data breaks the log's schema.
 */
export function payloadOf(
  event: StreamEvent,
  type: WebhookEventType,
  trade: TradeFacts | null,
): WebhookPayload {
  switch (type) {
    case 'trade.status_changed':
    case 'trade.failed': {
      if (event.kind !== 'lifecycle') {
        throw new Error(`${type} is made from lifecycle events only`);
      }
      const { payload } = event.message;
      const data =
        type === 'trade.failed'
          ? tradeFailedData(payload, trade)
          : tradeStatusChangedData(payload, trade);
      return { type, timestamp: payload.timestamp, data };
    }
    case 'trade.fill': {
      if (event.kind !== 'fill') {
        throw new Error('trade.fill is made from fills only');
      }
      return {
        type,
        timestamp: event.message.payload.created_at,
        data: tradeFillData(event.message.payload, trade),
      };
    }
    case 'system.kill_switch':
    case 'system.maintenance': {
      if (event.kind !== 'maintenance') {
        throw new Error(`${type} is made from maintenance changes only`);
      }
      const { exchange, enabled, reason, updated_at: updatedAt } = event.message.payload;
      const data: KillSwitchData | MaintenanceData =
        type === 'system.kill_switch'
          ? { enabled, reason, updated_at: updatedAt }
          : { exchange, enabled, reason, updated_at: updatedAt };
      return { type, timestamp: updatedAt, data };
    }
  }
}

const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function tradeStatusChangedData(
  lifecycle: TradeLifecycle,
  trade: TradeFacts | null,
): TradeStatusChangedData {
  const details = lifecycle.data;
  return {
    trade_id: lifecycle.trade_id,
    market: trade?.market ?? null,
    event: lifecycle.event,
    status: lifecycle.status,
    filled_size: stringOf(details['filled_size']) ?? trade?.filledSize ?? null,
    target_size: stringOf(details['target_size']) ?? trade?.targetSize ?? null,
    size_type: stringOf(details['size_type']) ?? trade?.sizeType ?? null,
    failure_reason: stringOf(details['failure_reason']),
    details,
  };
}

function tradeFailedData(lifecycle: TradeLifecycle, trade: TradeFacts | null): TradeFailedData {
  const changed = tradeStatusChangedData(lifecycle, trade);
  // A rejection comes before any order: nothing can be unhedged.
  const unhedged =
    stringOf(changed.details['unhedged_size']) ?? (lifecycle.status === 'rejected' ? '0' : null);
  return {
    trade_id: changed.trade_id,
    market: changed.market,
    status: changed.status,
    failure_reason: changed.failure_reason ?? '',
    unhedged_size: unhedged,
    hedge_exchange: trade?.hedgeExchange ?? null,
    filled_size: changed.filled_size,
    target_size: changed.target_size,
    size_type: changed.size_type,
  };
}

function tradeFillData(fill: TradeFill, trade: TradeFacts | null): TradeFillData {
  const common = { trade_id: fill.trade_id, sequence: fill.sequence };
  if (fill.event_type === 'maker_fill') {
    const data = decodeLogData('maker_fill', fill.data);
    return {
      ...common,
      market: data.market,
      leg: 'maker',
      event_type: 'maker_fill',
      ...legFill(data),
    };
  }
  if (fill.event_type === 'hedge_filled') {
    const data = decodeLogData('hedge_filled', fill.data);
    return {
      ...common,
      market: trade?.market ?? null,
      leg: 'hedge',
      event_type: 'hedge_filled',
      ...legFill(data),
    };
  }
  throw new Error(`${fill.event_type} makes no trade.fill`);
}

/** The fields a maker fill and a hedge fill share. */
function legFill(
  data: Pick<
    LogDataOf['maker_fill'] & LogDataOf['hedge_filled'],
    | 'exchange'
    | 'side'
    | 'price'
    | 'size'
    | 'fee'
    | 'fee_asset'
    | 'liquidity'
    | 'order_id'
    | 'timestamp_ms'
  >,
) {
  return {
    exchange: data.exchange,
    side: data.side,
    price: data.price,
    size: data.size,
    fee: data.fee,
    fee_asset: data.fee_asset,
    liquidity: data.liquidity,
    order_id: data.order_id,
    filled_at: new Date(data.timestamp_ms).toISOString(),
  };
}
