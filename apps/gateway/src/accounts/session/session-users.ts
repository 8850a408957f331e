import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Principal } from '@sts/auth';
import { AppError } from '@sts/platform';

export interface SessionUser {
  userId: string;
  /** The account's primary wallet; null until it links one. */
  walletAddress: string | null;
  created: boolean;
}

/**
 * Creates the account on the first browser sign-in. The identity provider's
 * subject is the user id. A token with a wallet claim (a SIWE provider's)
 * links that wallet, verified, and the first such wallet is the primary; a
 * token without one (Google, Entra, Auth0, Keycloak as they come) makes an
 * account with no wallet yet, which links one by signing the gateway's
 * challenge (POST /wallets/link), the first linked becoming the primary.
 */
@Injectable()
export class SessionUsers {
  constructor(private readonly dataSource: DataSource) {}

  async ensure(principal: Principal): Promise<SessionUser> {
    const claimed = principal.walletAddress ?? null;
    return this.dataSource.transaction(async (db) => {
      const inserted: Array<{ id: string }> = await db.query(
        `INSERT INTO users (id, primary_wallet) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING id`,
        [principal.userId, claimed],
      );
      if (claimed) {
        await linkClaimedWallet(db, principal.userId, claimed);
      }
      const user: Array<{ primary_wallet: string | null }> = await db.query(
        `SELECT primary_wallet FROM users WHERE id = $1`,
        [principal.userId],
      );
      return {
        userId: principal.userId,
        walletAddress: user[0]?.primary_wallet ?? null,
        created: inserted.length > 0,
      };
    });
  }
}

/**
 * The token's wallet, linked and verified (the provider proved it). It
 * becomes the primary of an account that has none yet; a later sign-in
 * with another wallet links it too, but only the first is primary.
 */
async function linkClaimedWallet(db: EntityManager, userId: string, wallet: string): Promise<void> {
  const owner: Array<{ user_id: string }> = await db.query(
    `INSERT INTO wallets (address, user_id, is_primary, verified)
     SELECT $1, u.id, COALESCE(u.primary_wallet, $1) = $1, true FROM users u WHERE u.id = $2
     ON CONFLICT (address) DO UPDATE SET address = EXCLUDED.address
     RETURNING user_id`,
    [wallet, userId],
  );
  if (owner[0]?.user_id !== userId) {
    throw new AppError('wallet_already_linked', 'this wallet belongs to another account');
  }
  await db.query(`UPDATE users SET primary_wallet = $1 WHERE id = $2 AND primary_wallet IS NULL`, [
    wallet,
    userId,
  ]);
}
