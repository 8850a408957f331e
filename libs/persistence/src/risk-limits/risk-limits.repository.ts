import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';

/** The limits a desk can set (issue 35); each is optional, absent meaning no limit. */
export const RISK_LIMIT_NAMES = [
  'max_trade_notional',
  'max_open_notional',
  'max_open_notional_per_market',
  'max_live_trades',
  'max_slippage',
] as const;

export type RiskLimitName = (typeof RISK_LIMIT_NAMES)[number];

/** One scope's limits as stored: decimal strings (max_live_trades: an integer's digits), null where unset. */
export type RiskLimitSet = Record<RiskLimitName, string | null>;

export interface RiskLimitsRow {
  /** null: the default for every user. */
  userId: string | null;
  limits: RiskLimitSet;
  updatedBy: string;
  updatedAt: Date;
}

type StoredRow = Record<RiskLimitName, string | null> & {
  user_id: string | null;
  updated_by: string;
  updated_at: Date;
};

const RETURNED = [
  'user_id',
  ...RISK_LIMIT_NAMES.map((name) => `${name}::text AS ${name}`),
  'updated_by',
  'updated_at',
].join(', ');

/** The scope's row: a user's, or the default (user_id NULL), as the unique index names it. */
const SCOPE = `COALESCE(user_id, '') = COALESCE($1::text, '')`;

const rowOf = (row: StoredRow): RiskLimitsRow => ({
  userId: row.user_id,
  limits: Object.fromEntries(RISK_LIMIT_NAMES.map((name) => [name, row[name]])) as RiskLimitSet,
  updatedBy: row.updated_by,
  updatedAt: row.updated_at,
});

/**
 * The only SQL on `risk_limits` (migration RiskLimits1763700900000). Writes
 * run in the caller's transaction, so an operator's change and its audit
 * entry commit together.
 */
export class RiskLimitsRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Every scope: the default first, then users by id. */
  async all(): Promise<RiskLimitsRow[]> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${RETURNED} FROM risk_limits ORDER BY user_id NULLS FIRST`,
    );
    return rows.map(rowOf);
  }

  /** Sets the given limits of the scope (`userId` null: the default); the others stay as they are. */
  async set(
    userId: string | null,
    values: Partial<Record<RiskLimitName, string>>,
    operatorId: string,
  ): Promise<RiskLimitsRow> {
    const [row] = await queryRows<StoredRow>(
      this.manager,
      `INSERT INTO risk_limits (user_id, ${RISK_LIMIT_NAMES.join(', ')}, updated_by)
       VALUES ($1, ${RISK_LIMIT_NAMES.map((_, i) => `$${i + 2}`).join(', ')}, $${RISK_LIMIT_NAMES.length + 2})
       ON CONFLICT ((COALESCE(user_id, ''))) DO UPDATE SET
         ${RISK_LIMIT_NAMES.map((name) => `${name} = COALESCE(EXCLUDED.${name}, risk_limits.${name})`).join(', ')},
         updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING ${RETURNED}`,
      [userId, ...RISK_LIMIT_NAMES.map((name) => values[name] ?? null), operatorId],
    );
    return rowOf(row!);
  }

  /**
   * Removes the named limits of the scope (none named: every one); a scope left with no limit loses
   * its row. Answers what remains, or null when nothing does.
   */
  async clear(
    userId: string | null,
    names: readonly RiskLimitName[],
    operatorId: string,
  ): Promise<RiskLimitsRow | null> {
    const cleared = names.length > 0 ? names : RISK_LIMIT_NAMES;
    const [row] = await queryRows<StoredRow>(
      this.manager,
      `UPDATE risk_limits SET ${cleared.map((name) => `${name} = NULL`).join(', ')},
         updated_by = $2, updated_at = now()
       WHERE ${SCOPE} RETURNING ${RETURNED}`,
      [userId, operatorId],
    );
    if (!row) {
      return null;
    }
    if (RISK_LIMIT_NAMES.some((name) => row[name] !== null)) {
      return rowOf(row);
    }
    await queryRows(this.manager, `DELETE FROM risk_limits WHERE ${SCOPE}`, [userId]);
    return null;
  }
}
