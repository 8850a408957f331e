import type { DataSource } from 'typeorm';
import type { MaintenanceChanged } from '@sts/contracts';
import { switchesInForce } from '@sts/persistence';

/**
 * The operator switches in force now (maintenance of the system or a venue,
 * the kill switch), read from Postgres: a socket is told them when it
 * authenticates, so a client that connects during maintenance or with the
 * kill switch on knows it without waiting for the next change.
 */
export class SwitchesInForce {
  constructor(private readonly db: DataSource) {}

  async read(): Promise<MaintenanceChanged[]> {
    return (await switchesInForce(this.db.manager)).map((row) => ({
      exchange: row.exchange,
      enabled: true,
      reason: row.reason,
      updated_by: row.updated_by,
      updated_at: row.updated_at.toISOString(),
    }));
  }
}
