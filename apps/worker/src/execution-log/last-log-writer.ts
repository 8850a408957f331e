import type { DataSource } from 'typeorm';
import { queryRows } from '@sts/persistence';

/**
 * The worker that wrote the trade's newest log entry, or null for an empty
 * log. Read by the worker that resumes a trade handed over to it: a released
 * lease keeps no owner, but every worker that runs a trade logs as it starts
 * it (chunk_started, recovery_completed), so the newest entry is the handing
 * worker's.
 */
export async function readLastLogWriter(db: DataSource, tradeId: string): Promise<string | null> {
  const rows = await queryRows<{ worker_id: string }>(
    db.manager,
    `SELECT worker_id FROM trade_events WHERE trade_id = $1 ORDER BY sequence DESC LIMIT 1`,
    [tradeId],
  );
  return rows[0]?.worker_id ?? null;
}
