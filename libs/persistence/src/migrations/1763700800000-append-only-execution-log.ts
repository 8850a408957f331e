import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The execution log is append-only in the database, not only in the code:
 * any UPDATE, DELETE or TRUNCATE of trade_events is refused whoever sends it
 * (the services' own user owns the tables, so a privilege would not stop it;
 * a trigger does), and a trade with log entries cannot be deleted (the
 * foreign key restricts instead of cascading). Inserts and reads are
 * unchanged; nothing in the services updates or deletes log entries, and the
 * log has no retention.
 */
export class AppendOnlyExecutionLog1763700800000 implements MigrationInterface {
  name = 'AppendOnlyExecutionLog1763700800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION refuse_execution_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the execution log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END $$`);
    // Statement triggers: refused even when no row matches, so no statement of the kind passes.
    await db.query(`
      CREATE TRIGGER trade_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
      ON trade_events FOR EACH STATEMENT EXECUTE FUNCTION refuse_execution_log_change()`);
    await db.query(`
      ALTER TABLE trade_events
        DROP CONSTRAINT trade_events_trade_id_fkey,
        ADD CONSTRAINT trade_events_trade_id_fkey FOREIGN KEY (trade_id)
          REFERENCES trades(id) ON DELETE RESTRICT`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE trade_events
        DROP CONSTRAINT trade_events_trade_id_fkey,
        ADD CONSTRAINT trade_events_trade_id_fkey FOREIGN KEY (trade_id)
          REFERENCES trades(id) ON DELETE CASCADE`);
    await db.query(`DROP TRIGGER trade_events_append_only ON trade_events`);
    await db.query(`DROP FUNCTION refuse_execution_log_change()`);
  }
}
