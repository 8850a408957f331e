import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a trade left unhedged at its end, on its row (decisions 2): maker
 * fills below the hedge venue's lot or minimums (`residual_unhedged`, base
 * units) and how much of that the reduce-only unwind on the maker venue took
 * back (`residual_unwound`). Written with the terminal status, in the same
 * statement; 0 on every trade that ended before, and on trades with none.
 */
export class TradeResiduals1763701000000 implements MigrationInterface {
  name = 'TradeResiduals1763701000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE trades
        ADD COLUMN residual_unhedged numeric NOT NULL DEFAULT 0 CHECK (residual_unhedged >= 0),
        ADD COLUMN residual_unwound numeric NOT NULL DEFAULT 0 CHECK (residual_unwound >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE trades DROP COLUMN residual_unwound, DROP COLUMN residual_unhedged`,
    );
  }
}
