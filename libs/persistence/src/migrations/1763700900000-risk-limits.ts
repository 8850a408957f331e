import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The live statuses when this migration was written (LIVE_STATUS_SQL). */
const LIVE = `('pending', 'validating', 'active', 'paused', 'recovering')`;

/**
 * Pre-trade risk limits a desk sets per user (issue 35): one row per user
 * that has overrides, and one row with `user_id` NULL, the default for every
 * user. A NULL limit is no limit; a user's limit is their own where set, else
 * the default's. Operators write the rows (`ops limits`), the gateway caches
 * them and hears each change on the change-notice channel
 * (ChangeNotices1763700400000's function). A user's live trades are counted
 * and valued on every create of a limited user: the partial index finds them.
 */
export class RiskLimits1763700900000 implements MigrationInterface {
  name = 'RiskLimits1763700900000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE risk_limits (
        user_id text REFERENCES users(id) ON DELETE CASCADE,
        max_trade_notional numeric CHECK (max_trade_notional >= 0),
        max_open_notional numeric CHECK (max_open_notional >= 0),
        max_open_notional_per_market numeric CHECK (max_open_notional_per_market >= 0),
        max_live_trades integer CHECK (max_live_trades >= 0),
        max_slippage numeric CHECK (max_slippage >= 0),
        updated_by text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One row per user, and one default (NULL user): NULLs are otherwise distinct.
    await db.query(
      `CREATE UNIQUE INDEX risk_limits_scope_idx ON risk_limits ((COALESCE(user_id, '')))`,
    );
    await db.query(`CREATE INDEX trades_live_user_idx ON trades (user_id) WHERE status IN ${LIVE}`);
    await db.query(`
      CREATE TRIGGER risk_limits_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON risk_limits FOR EACH STATEMENT EXECUTE FUNCTION notify_cached_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER risk_limits_change_notice ON risk_limits`);
    await db.query(`DROP INDEX trades_live_user_idx`);
    await db.query(`DROP TABLE risk_limits`);
  }
}
