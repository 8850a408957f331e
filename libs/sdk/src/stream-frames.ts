import type { TradeStatus } from './types';

/** Messages of the notifier WebSocket (apps/gateway/asyncapi.json). */
export type LifecycleEventName =
  | 'trade.started'
  | 'trade.completed'
  | 'trade.failed'
  | 'trade.canceled'
  | 'trade.paused'
  | 'trade.resumed';

export interface TradeLifecycleEvent {
  type: 'event';
  event: LifecycleEventName;
  event_id: string;
  trade_id: string;
  status: TradeStatus;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface MaintenanceEvent {
  type: 'event';
  event: 'maintenance';
  event_id: string;
  /** An exchange id, `_system`, or `_kill_switch`. */
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_by?: string;
  updated_at: string;
  timestamp: string;
}

export type StsEvent = TradeLifecycleEvent | MaintenanceEvent;

/** The execution-log entries the fills subscription pushes. */
export type FillEventType = 'maker_fill' | 'hedge_filled' | 'hedge_outcome';

/**
 * A fill pushed by the `fills` subscription: an execution-log entry with the
 * log's own sequence (GET /api/v1/trades/{id}/events), so pushing and polling
 * can be switched between without a gap.
 */
export interface StsFill {
  type: 'fill';
  trade_id: string;
  sequence: number;
  event_type: FillEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** The subscriptions of the notifier protocol. */
export type SubscriptionName = 'trades' | 'fills';

/** Any frame the server sends, as far as the stream reads it before knowing its type. */
export interface ServerFrame {
  type: string;
  op?: string;
  subscription?: SubscriptionName;
  event_id?: string;
  trade_id?: string;
  sequence?: number;
  params?: { trade_id?: string };
}
