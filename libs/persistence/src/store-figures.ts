import type { DataSource } from 'typeorm';
import { KILL_SWITCH } from './entities/system-flag.entity';
import { LIVE_STATUS_SQL } from './sql/trade-status-sql';

/**
 * What an operator watches in Postgres itself: the outbox relay's lag,
 * trades no worker holds, and a kill switch left on.
 */
export interface StoreFigures {
  /** Outbox rows committed and not yet published. */
  outboxPending: number;
  /** Age of the oldest of them in seconds (0 when none). */
  outboxLagSeconds: number;
  /** Trades in a live status (pending, validating, active, paused, recovering). */
  liveTrades: number;
  /** Live trades whose lease nobody holds: never taken, or its worker's lease expired. */
  unleasedTrades: number;
  /** How long the kill switch has been on, in seconds (0 while it is off). */
  killSwitchOnSeconds: number;
}

/**
 * One round trip for the gateway's scrape: the counts read through the
 * partial indexes of unpublished outbox rows and of live trades, and the
 * kill switch's one row.
 */
export async function readStoreFigures(db: Pick<DataSource, 'query'>): Promise<StoreFigures> {
  const [row] = (await db.query(
    `SELECT o.pending, o.age, t.live, t.unleased, k.on_for
       FROM (SELECT count(*)::int AS pending,
                    coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
               FROM outbox WHERE published_at IS NULL) o,
            (SELECT count(*)::int AS live,
                    (count(*) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now()))::int
                      AS unleased
               FROM trades
              WHERE status IN ${LIVE_STATUS_SQL}) t,
            (SELECT coalesce(max(extract(epoch FROM now() - updated_at)), 0)::float8 AS on_for
               FROM system_flags WHERE name = $1 AND enabled) k`,
    [KILL_SWITCH],
  )) as Array<{ pending: number; age: number; live: number; unleased: number; on_for: number }>;
  return {
    outboxPending: row?.pending ?? 0,
    outboxLagSeconds: Math.max(0, row?.age ?? 0),
    liveTrades: row?.live ?? 0,
    unleasedTrades: row?.unleased ?? 0,
    killSwitchOnSeconds: Math.max(0, row?.on_for ?? 0),
  };
}
