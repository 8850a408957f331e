import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@sts/auth';
import { AppError } from '@sts/platform';

export interface SessionUser {
  userId: string;
  walletAddress: string;
  created: boolean;
}

/**
 * Creates the user and its primary wallet on the first browser sign-in. The
 * identity provider's subject is the user id; the wallet the user signed in
 * with becomes the primary (verified) wallet.
 */
@Injectable()
export class SessionUsers {
  constructor(private readonly dataSource: DataSource) {}

  async ensure(principal: Principal): Promise<SessionUser> {
    const walletAddress = principal.walletAddress;
    if (!walletAddress) {
      throw new AppError('unauthorized', 'token has no wallet address claim');
    }
    return this.dataSource.transaction(async (db) => {
      const inserted: Array<{ id: string }> = await db.query(
        `INSERT INTO users (id, primary_wallet) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING id`,
        [principal.userId, walletAddress],
      );
      // A later sign-in with another wallet links it too, but only the first is primary.
      const owner: Array<{ user_id: string }> = await db.query(
        `INSERT INTO wallets (address, user_id, is_primary, verified)
         SELECT $1, u.id, u.primary_wallet = $1, true FROM users u WHERE u.id = $2
         ON CONFLICT (address) DO UPDATE SET address = EXCLUDED.address
         RETURNING user_id`,
        [walletAddress, principal.userId],
      );
      if (owner[0]?.user_id !== principal.userId) {
        throw new AppError('wallet_already_linked', 'this wallet belongs to another account');
      }
      return { userId: principal.userId, walletAddress, created: inserted.length > 0 };
    });
  }
}
