import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The live statuses when this migration was written (LIVE_STATUS_SQL). */
const LIVE = `('pending', 'validating', 'active', 'paused', 'recovering')`;

/**
 * Every holder of an account holds the same share (floor(limit / holders)),
 * so the share is kept once per account, not copied into every live trade's
 * row: a reserve or a release used to rewrite the rows of all the account's
 * holders (a create on an account of 60 trades updated 60 rows), now it
 * upserts one row. `budget_account_shares` keeps the version of the budget
 * store's change it shows; an older change arriving late writes nothing.
 *
 * `trade_budgets` is a trade's budgets as the API shows them: a live trade's
 * are its accounts' shares, once an account row at least as new as the
 * trade's own grant is written (`budget_version`, `hedge_budget_version`: the
 * budget store's version of the grant; until then, and for rows from before
 * them, the grant in its row); a finished trade's are those it ended with,
 * which the trigger copies into its row when it leaves the live statuses,
 * whoever writes that.
 */
export class BudgetAccountShares1763700600000 implements MigrationInterface {
  name = 'BudgetAccountShares1763700600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE budget_account_shares (
        venue text NOT NULL,
        wallet text NOT NULL,
        share integer NOT NULL CHECK (share >= 0),
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (venue, wallet)
      )`);
    await db.query('DROP TABLE budget_row_versions');
    await db.query(`
      ALTER TABLE trades ADD COLUMN budget_version bigint NOT NULL DEFAULT 0,
        ADD COLUMN hedge_budget_version bigint NOT NULL DEFAULT 0`);
    await db.query(`
      CREATE VIEW trade_budgets AS
      SELECT t.id AS trade_id,
        CASE WHEN t.status IN ${LIVE} THEN COALESCE(m.share, t.rate_budget)
          ELSE t.rate_budget END AS rate_budget,
        CASE WHEN t.hedge_rate_budget IS NOT NULL AND t.status IN ${LIVE}
          THEN COALESCE(h.share, t.hedge_rate_budget)
          ELSE t.hedge_rate_budget END AS hedge_rate_budget
      FROM trades t
      LEFT JOIN budget_account_shares m
        ON m.venue = t.maker_exchange AND m.wallet = t.maker_wallet
          AND m.version >= t.budget_version
      LEFT JOIN budget_account_shares h
        ON t.hedge_rate_budget IS NOT NULL
          AND h.venue = t.hedge_exchange AND h.wallet = t.hedge_wallet
          AND h.version >= t.hedge_budget_version`);
    await db.query(`
      CREATE FUNCTION freeze_trade_budgets() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.status IN ${LIVE} AND NEW.status NOT IN ${LIVE} THEN
          NEW.rate_budget := COALESCE((SELECT share FROM budget_account_shares
            WHERE venue = NEW.maker_exchange AND wallet = NEW.maker_wallet
              AND version >= NEW.budget_version), NEW.rate_budget);
          IF NEW.hedge_rate_budget IS NOT NULL THEN
            NEW.hedge_rate_budget := COALESCE((SELECT share FROM budget_account_shares
              WHERE venue = NEW.hedge_exchange AND wallet = NEW.hedge_wallet
                AND version >= NEW.hedge_budget_version), NEW.hedge_rate_budget);
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE TRIGGER trades_freeze_budgets BEFORE UPDATE OF status ON trades
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION freeze_trade_budgets()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER trades_freeze_budgets ON trades');
    await db.query('DROP FUNCTION freeze_trade_budgets()');
    await db.query('DROP VIEW trade_budgets');
    await db.query('DROP TABLE budget_account_shares');
    await db.query(
      'ALTER TABLE trades DROP COLUMN budget_version, DROP COLUMN hedge_budget_version',
    );
    await db.query(`
      CREATE TABLE budget_row_versions (
        venue text NOT NULL,
        wallet text NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (venue, wallet)
      )`);
  }
}
