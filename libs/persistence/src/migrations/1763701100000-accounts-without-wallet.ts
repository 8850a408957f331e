import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account may exist before it has a wallet (issue 59): an OpenID Connect
 * provider as it comes (Google, Entra, Auth0, Keycloak) names the user but no
 * wallet, so the account is created on the first sign-in with
 * `primary_wallet` null, and the first wallet linked by signing the gateway's
 * challenge becomes its primary. Still UNIQUE: a wallet is one account's.
 */
export class AccountsWithoutWallet1763701100000 implements MigrationInterface {
  name = 'AccountsWithoutWallet1763701100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ALTER COLUMN primary_wallet DROP NOT NULL`);
  }

  /**
   * An account that has linked a wallet since gets it back as its primary; one
   * that never linked any has no credential or trade (both need a wallet) and
   * is removed, its challenges and API keys with it: the column cannot be NOT
   * NULL with it.
   */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      UPDATE users u SET primary_wallet = w.address
      FROM (SELECT DISTINCT ON (user_id) user_id, address FROM wallets
            ORDER BY user_id, is_primary DESC, linked_at, address) w
      WHERE u.primary_wallet IS NULL AND w.user_id = u.id`);
    await db.query(`
      UPDATE wallets w SET is_primary = true FROM users u
      WHERE u.id = w.user_id AND u.primary_wallet = w.address AND NOT w.is_primary`);
    await db.query(`DELETE FROM users WHERE primary_wallet IS NULL`);
    await db.query(`ALTER TABLE users ALTER COLUMN primary_wallet SET NOT NULL`);
  }
}
