import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The budget service writes each account's shares into its live trades' rows
 * in one statement, from the change it just made, without reading the budget
 * store again under a lock. Two writes of one account (two replicas, two
 * changes) may then arrive out of order: this table keeps the version last
 * written per account, and a write older than it changes nothing.
 */
export class BudgetRowVersions1763700500000 implements MigrationInterface {
  name = 'BudgetRowVersions1763700500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE budget_row_versions (
        venue text NOT NULL,
        wallet text NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (venue, wallet)
      )
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE budget_row_versions');
  }
}
