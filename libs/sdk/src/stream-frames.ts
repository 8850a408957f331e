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
  /** The worker's details; for `trade.completed`, `trade.canceled` and `trade.failed`: TradeEndedData. */
  data: Record<string, unknown>;
}

/**
 * `data` of the events that end a trade (`trade.completed`, `trade.canceled`,
 * `trade.failed`; apps/gateway/asyncapi.json). Decimals are strings, sizes in
 * the trade's base units. `residual_unhedged` is what the trade could not
 * hedge (below the hedge venue's minimum; on a failed trade, what its hedge
 * left), `residual_unwound` what the reduce-only unwind on the maker venue
 * took back: the difference stays one-sided in the maker wallet. Absent on
 * events of trades that ended before these were written.
 */
export interface TradeEndedData {
  filled_size: string;
  target_size: string;
  residual_unhedged?: string;
  residual_unwound?: string;
  /** trade.failed only. */
  failure_reason?: string;
  /** trade.failed only: maker fills not confirmed hedged when the hedge failed. */
  unhedged_size?: string;
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
