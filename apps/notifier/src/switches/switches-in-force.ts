import type { DataSource } from 'typeorm';
import type { MaintenanceChanged } from '@sts/contracts';
import { KILL_SWITCH, queryRows } from '@sts/persistence';

/** The kill switch as a maintenance event names it. */
const KILL_SWITCH_SCOPE = '_kill_switch';

interface SwitchRow {
  exchange: string;
  reason: string;
  updated_by: string;
  updated_at: Date;
}

/**
 * The operator switches in force now (maintenance of the system or a venue,
 * the kill switch), read from Postgres: a socket is told them when it
 * authenticates, so a client that connects during maintenance or with the
 * kill switch on knows it without waiting for the next change.
 */
export class SwitchesInForce {
  constructor(private readonly db: DataSource) {}

  async read(): Promise<MaintenanceChanged[]> {
    const rows = await queryRows<SwitchRow>(
      this.db.manager,
      `SELECT exchange, reason, updated_by, updated_at FROM maintenance WHERE enabled
       UNION ALL
       SELECT $1, reason, updated_by, updated_at FROM system_flags WHERE name = $2 AND enabled
       ORDER BY exchange`,
      [KILL_SWITCH_SCOPE, KILL_SWITCH],
    );
    return rows.map((row) => ({
      exchange: row.exchange,
      enabled: true,
      reason: row.reason,
      updated_by: row.updated_by,
      updated_at: row.updated_at.toISOString(),
    }));
  }
}
