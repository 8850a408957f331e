import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (issue 58): a user's endpoints and the deliveries owed to them.
 *
 * `webhook_endpoints`: where a user's events go, which events, in which
 * format (standard, discord, slack, telegram), and the signing secret sealed
 * with the credentials' key (it signs every delivery, so it is kept, never
 * shown again after the create). A deleted endpoint keeps its row
 * (`deleted_at`) so its deliveries stay readable until they age out; an
 * endpoint failing since `failing_since` for days is disabled, with the
 * reason.
 *
 * `webhook_deliveries`: one row per event and endpoint (`source` names the
 * event, so an event the dispatcher reads twice is owed once), its body as
 * it is sent, its `message_id` (the `webhook-id` of every attempt of it),
 * and its attempts. The ids are in the order the events came, which is the
 * order an endpoint gets them.
 */
export class Webhooks1763701200000 implements MigrationInterface {
  name = 'Webhooks1763701200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url text NOT NULL,
        events text[] NOT NULL,
        format text NOT NULL DEFAULT 'standard',
        description text NOT NULL DEFAULT '',
        sealed_secret bytea NOT NULL,
        kek_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        CONSTRAINT webhook_endpoints_format
          CHECK (format IN ('standard', 'discord', 'slack', 'telegram')),
        CONSTRAINT webhook_endpoints_some_event CHECK (cardinality(events) > 0)
      )`);
    await db.query(
      `CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id) WHERE deleted_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        message_id text NOT NULL UNIQUE,
        source text NOT NULL,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        attempt_log jsonb NOT NULL DEFAULT '[]',
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        claimed_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CONSTRAINT webhook_deliveries_once UNIQUE (endpoint_id, source),
        CONSTRAINT webhook_deliveries_status
          CHECK (status IN ('pending', 'delivered', 'failed', 'canceled'))
      )`);
    await db.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await db.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
