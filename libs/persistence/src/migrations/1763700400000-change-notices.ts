import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CHANGE_NOTICES_CHANNEL } from '../change-notices';

/**
 * Every committed change to what an edge service caches per request (API keys,
 * maintenance flags, the kill switch) sends a notice on CHANGE_NOTICES_CHANNEL,
 * whoever writes it: the operator tool, another replica, plain SQL. A key's
 * notice names its lookup prefix; the flags' notices (and a TRUNCATE of the
 * keys) name only the table.
 * An API key's last_used_at alone is not a change worth a notice: the gateway
 * writes it once a minute per key.
 */
export class ChangeNotices1763700400000 implements MigrationInterface {
  name = 'ChangeNotices1763700400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION notify_cached_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'api_keys' AND TG_LEVEL = 'ROW' THEN
          IF TG_OP = 'UPDATE'
             AND (to_jsonb(OLD) - 'last_used_at') = (to_jsonb(NEW) - 'last_used_at') THEN
            RETURN NULL;
          END IF;
          PERFORM pg_notify('${CHANGE_NOTICES_CHANNEL}', 'api_keys:' || COALESCE(OLD.prefix, NEW.prefix));
          IF TG_OP = 'UPDATE' AND OLD.prefix <> NEW.prefix THEN
            PERFORM pg_notify('${CHANGE_NOTICES_CHANNEL}', 'api_keys:' || NEW.prefix);
          END IF;
        ELSE
          PERFORM pg_notify('${CHANGE_NOTICES_CHANNEL}', TG_TABLE_NAME);
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER api_keys_change_notice AFTER UPDATE OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION notify_cached_change()`);
    await db.query(`
      CREATE TRIGGER api_keys_truncate_notice AFTER TRUNCATE ON api_keys
      FOR EACH STATEMENT EXECUTE FUNCTION notify_cached_change()`);
    for (const table of ['maintenance', 'system_flags']) {
      await db.query(`
        CREATE TRIGGER ${table}_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
        ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_cached_change()`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER system_flags_change_notice ON system_flags`);
    await db.query(`DROP TRIGGER maintenance_change_notice ON maintenance`);
    await db.query(`DROP TRIGGER api_keys_truncate_notice ON api_keys`);
    await db.query(`DROP TRIGGER api_keys_change_notice ON api_keys`);
    await db.query(`DROP FUNCTION notify_cached_change()`);
  }
}
