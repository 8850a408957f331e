import type { MaintenanceEntity } from '@sts/persistence';

export interface MaintenanceEntryView {
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_by: string;
  updated_at: string;
}

export const presentMaintenance = (entry: MaintenanceEntity): MaintenanceEntryView => ({
  exchange: entry.exchange,
  enabled: entry.enabled,
  reason: entry.reason,
  updated_by: entry.updatedBy,
  updated_at: entry.updatedAt.toISOString(),
});
