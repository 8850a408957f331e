import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The id of the last execution-log append a worker committed for a trade: a
 * retried append (its commit answer lost) finds its own id there and is not
 * written twice.
 */
export class AppendId1763700200000 implements MigrationInterface {
  name = 'AppendId1763700200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE trades ADD COLUMN last_append_id uuid`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE trades DROP COLUMN last_append_id`);
  }
}
