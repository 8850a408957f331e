import { objectOf, booleanField, stringField } from './guards';

/**
 * Published (core NATS) whenever an operator flips a maintenance flag or the
 * kill switch. Workers pause or resume; notifiers fan it out to every socket.
 * Postgres holds the flag itself: a subscriber that missed this reads it there.
 */
export const MAINTENANCE_CHANGED = 'maintenance.changed';

export const maintenanceChangedSubject = (prefix: string): string => `${prefix}.events.maintenance`;

export interface MaintenanceChanged {
  /** A venue id, `_system`, or `_kill_switch` for the global kill switch. */
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_by: string;
  updated_at: string;
}

export function parseMaintenanceChanged(value: unknown): MaintenanceChanged {
  const record = objectOf(MAINTENANCE_CHANGED, value);
  return {
    exchange: stringField(MAINTENANCE_CHANGED, record, 'exchange'),
    enabled: booleanField(MAINTENANCE_CHANGED, record, 'enabled'),
    reason: stringField(MAINTENANCE_CHANGED, record, 'reason'),
    updated_by: stringField(MAINTENANCE_CHANGED, record, 'updated_by'),
    updated_at: stringField(MAINTENANCE_CHANGED, record, 'updated_at'),
  };
}
