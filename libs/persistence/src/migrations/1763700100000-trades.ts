import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trades, their append-only execution log and the transactional outbox that
 * carries commands to NATS JetStream exactly once.
 */
export class Trades1763700100000 implements MigrationInterface {
  name = 'Trades1763700100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE trades (
        id uuid PRIMARY KEY,
        user_id text NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
        market text NOT NULL,
        long_exchange text NOT NULL,
        long_wallet text NOT NULL,
        short_exchange text NOT NULL,
        short_wallet text NOT NULL,
        maker_leg text NOT NULL CHECK (maker_leg IN ('long', 'short')),
        maker_exchange text NOT NULL,
        maker_wallet text NOT NULL,
        hedge_exchange text NOT NULL,
        hedge_wallet text NOT NULL,
        cap_group text NOT NULL,
        target_spread numeric NOT NULL,
        spread_condition text NOT NULL,
        spread_type text NOT NULL DEFAULT 'absolute',
        target_size numeric NOT NULL CHECK (target_size > 0),
        size_type text NOT NULL DEFAULT 'base',
        filled_size numeric NOT NULL DEFAULT 0 CHECK (filled_size >= 0),
        execution_type text NOT NULL DEFAULT 'maker_taker',
        max_slippage numeric NOT NULL CHECK (max_slippage >= 0),
        status text NOT NULL,
        rate_budget integer NOT NULL,
        hedge_rate_budget integer,
        quote_mode text,
        worst_spread numeric,
        fast_move_guard text,
        fast_move_guard_bps numeric,
        fast_move_window_ms integer,
        fast_move_settle_ms integer,
        fast_move_guard_stats jsonb,
        failure_reason text NOT NULL DEFAULT '',
        idempotency_key text NOT NULL,
        amendment jsonb,
        amendment_version integer NOT NULL DEFAULT 0,
        cancel_requested_at timestamptz,
        lease_owner text,
        lease_expires_at timestamptz,
        lease_epoch bigint NOT NULL DEFAULT 0,
        last_sequence integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT trades_distinct_exchanges CHECK (long_exchange <> short_exchange),
        CONSTRAINT trades_idempotency UNIQUE (user_id, idempotency_key)
      )`);
    await db.query(`CREATE INDEX trades_user_recent_idx ON trades (user_id, created_at DESC)`);
    await db.query(`
      CREATE INDEX trades_live_maker_idx ON trades (maker_wallet, cap_group)
      WHERE status IN ('pending', 'validating', 'active', 'paused', 'recovering')`);
    await db.query(`
      CREATE INDEX trades_live_lease_idx ON trades (lease_expires_at)
      WHERE status IN ('pending', 'validating', 'active', 'paused', 'recovering')`);
    await db.query(`
      CREATE TABLE trade_events (
        trade_id uuid NOT NULL REFERENCES trades(id) ON DELETE CASCADE,
        sequence integer NOT NULL CHECK (sequence > 0),
        event_type text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        worker_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (trade_id, sequence)
      )`);
    await db.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        subject text NOT NULL,
        message_id text NOT NULL UNIQUE,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await db.query(`CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS outbox`);
    await db.query(`DROP TABLE IF EXISTS trade_events`);
    await db.query(`DROP TABLE IF EXISTS trades`);
  }
}
