import { SYSTEM_SCOPE } from '@sts/domain';
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '@sts/persistence';
import type {
  KillSwitchData,
  MaintenanceData,
  TradeFailedData,
  TradeFillData,
  TradeStatusChangedData,
  WebhookPayload,
} from '../webhook-events';

/** A trade as a chat line names it: the start of its id, and its market. */
const tradeName = (data: { trade_id: string; market: string | null }): string =>
  `Trade ${data.trade_id.slice(0, 8)}…${data.market ? ` ${data.market}` : ''}`;

/** `filled 0.004 of 0.01`, `filled 500 of 1000 USD` (a notional trade), or nothing. */
function filled(data: {
  filled_size: string | null;
  target_size: string | null;
  size_type: string | null;
}): string {
  if (data.filled_size === null) {
    return '';
  }
  const unit = data.size_type === 'notional' ? ' USD' : '';
  return data.target_size === null
    ? `filled ${data.filled_size}${unit}`
    : `filled ${data.filled_size} of ${data.target_size}${unit}`;
}

const onOff = (enabled: boolean): string => (enabled ? 'ON' : 'OFF');
const withReason = (line: string, reason: string): string =>
  reason.trim() === '' ? line : `${line}: ${reason.trim()}`;

function statusChanged(data: TradeStatusChangedData): string {
  const sizes = filled(data);
  const pauseReason = data.details['reason'];
  const why = data.failure_reason ?? (typeof pauseReason === 'string' ? pauseReason : null);
  return `${tradeName(data)}: ${data.status}${sizes ? `, ${sizes}` : ''}${why ? ` (${why})` : ''}`;
}

function failed(data: TradeFailedData): string {
  const unhedged =
    data.status === 'failed' && data.unhedged_size !== null
      ? `, unhedged size ${data.unhedged_size}${data.hedge_exchange ? ` on ${data.hedge_exchange}` : ''}`
      : '';
  return withReason(`${tradeName(data)} ${data.status}${unhedged}`, data.failure_reason);
}

function fill(data: TradeFillData): string {
  return `${tradeName(data)} ${data.leg} fill on ${data.exchange}: ${data.side} ${data.size} at ${data.price}`;
}

function killSwitch(data: KillSwitchData): string {
  return withReason(`Kill switch ${onOff(data.enabled)}`, data.reason);
}

function maintenance(data: MaintenanceData): string {
  const line =
    data.exchange === SYSTEM_SCOPE
      ? `System maintenance ${onOff(data.enabled)}`
      : `Maintenance ${onOff(data.enabled)} for ${data.exchange}`;
  return withReason(line, data.reason);
}

/** The one line a chat format shows for an event (docs/api.md, Webhook payloads). */
export function readableLine(payload: WebhookPayload): string {
  const type = payload.type as WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  switch (type) {
    case 'trade.status_changed':
      return statusChanged(payload.data as TradeStatusChangedData);
    case 'trade.failed':
      return failed(payload.data as TradeFailedData);
    case 'trade.fill':
      return fill(payload.data as TradeFillData);
    case 'system.kill_switch':
      return killSwitch(payload.data as KillSwitchData);
    case 'system.maintenance':
      return maintenance(payload.data as MaintenanceData);
    case WEBHOOK_TEST_EVENT:
      return 'Webhook test: this chat receives your spread-trading events';
  }
}
