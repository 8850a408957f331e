import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, authentication, venue credentials, maintenance, kill switch and the operator audit log. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
        primary_wallet text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE wallets (
        address text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        is_primary boolean NOT NULL DEFAULT false,
        verified boolean NOT NULL DEFAULT false,
        linked_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT wallets_address_lowercase CHECK (address = lower(address))
      )`);
    await db.query(`CREATE INDEX wallets_user_idx ON wallets (user_id)`);
    await db.query(`
      CREATE TABLE wallet_link_challenges (
        nonce text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        address text NOT NULL,
        message text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE exchange_credentials (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        exchange text NOT NULL,
        wallet_addr text NOT NULL REFERENCES wallets(address) ON DELETE CASCADE,
        key_preview text NOT NULL,
        permissions text NOT NULL DEFAULT 'trade',
        sealed_secret bytea NOT NULL,
        kek_id text NOT NULL,
        status text NOT NULL DEFAULT 'active',
        added_at timestamptz NOT NULL DEFAULT now(),
        last_used timestamptz,
        CONSTRAINT exchange_credentials_one_per_wallet UNIQUE (exchange, wallet_addr)
      )`);
    await db.query(`CREATE INDEX exchange_credentials_user_idx ON exchange_credentials (user_id)`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        prefix text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        scopes text[] NOT NULL,
        allowed_cidrs text[] NOT NULL DEFAULT '{}',
        label text NOT NULL DEFAULT '',
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        CONSTRAINT api_keys_lifetime CHECK (expires_at <= created_at + interval '365 days')
      )`);
    await db.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id)`);
    await db.query(`
      CREATE TABLE maintenance (
        exchange text PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT false,
        reason text NOT NULL DEFAULT '',
        updated_by text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      INSERT INTO maintenance (exchange) VALUES
        ('_system'), ('hyperliquid'), ('lighter'), ('paradex'), ('extended'), ('aster')`);
    await db.query(`
      CREATE TABLE system_flags (
        name text PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT false,
        reason text NOT NULL DEFAULT '',
        updated_by text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`INSERT INTO system_flags (name) VALUES ('kill_switch')`);
    await db.query(`
      CREATE TABLE operator_audit_log (
        id bigserial PRIMARY KEY,
        operator_id text NOT NULL,
        action text NOT NULL,
        target text NOT NULL DEFAULT '',
        details jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'operator_audit_log',
      'system_flags',
      'maintenance',
      'api_keys',
      'exchange_credentials',
      'wallet_link_challenges',
      'wallets',
      'users',
    ]) {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
