import { escapeLiteral } from 'pg';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';
import { LIVE_STATUS_SQL } from '../sql/trade-status-sql';

/**
 * The key space of the risk lock (`pg_advisory_xact_lock(int, int)`): the
 * two-key form never meets the one-key locks of the maker caps.
 */
const RISK_LOCK_SPACE = 0x5249534b;

/** A user's live trades of one (market, venues, size type), summed. */
export interface LiveTermsRow {
  market: string;
  long_exchange: string;
  short_exchange: string;
  size_type: string;
  /** Sum of their target sizes, in `size_type`. */
  target_size: string;
  trades: number;
}

/**
 * Held until the transaction ends by whoever writes what a user's limits
 * count. `exclusive` by a write checked against limits that count the user's
 * live trades (a limited user's create or amendment): one at a time, each
 * seeing what the one before committed. `shared` by a create of a user whose
 * limits count nothing (as of its arrival): such creates never wait on each
 * other, and a checked write waits for them, so a limit set while they were
 * in flight still counts them.
 */
export const riskLockSql = (userId: string, mode: 'exclusive' | 'shared'): string =>
  `SELECT pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(${RISK_LOCK_SPACE}, hashtext(${escapeLiteral(userId)}))`;

/**
 * What a user's limits count: their live trades' targets, grouped, read
 * through the partial index of live trades by user; `exceptTradeId` leaves
 * out a trade being amended. Literals (escaped), so it can travel in a
 * multi-statement round trip.
 */
export function liveTermsSql(userId: string, exceptTradeId?: string): string {
  const except = exceptTradeId === undefined ? '' : `AND id <> ${escapeLiteral(exceptTradeId)}`;
  return `SELECT market, long_exchange, short_exchange, size_type,
      sum(target_size)::text AS target_size, count(*)::int AS trades
    FROM trades WHERE user_id = ${escapeLiteral(userId)} AND status IN ${LIVE_STATUS_SQL} ${except}
    GROUP BY market, long_exchange, short_exchange, size_type
    ORDER BY market, long_exchange, short_exchange, size_type`;
}

/** Takes the user's risk lock, exclusive, in the manager's transaction. */
export async function lockRiskOf(manager: EntityManager, userId: string): Promise<void> {
  await queryRows(manager, riskLockSql(userId, 'exclusive'));
}

export function readLiveTerms(
  manager: EntityManager,
  userId: string,
  exceptTradeId?: string,
): Promise<LiveTermsRow[]> {
  return queryRows<LiveTermsRow>(manager, liveTermsSql(userId, exceptTradeId));
}
