import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { verifyMessage } from 'viem';
import { WalletEntity, WalletLinkChallengeEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';

export interface LinkWalletCommand {
  userId: string;
  address: string;
  nonce: string;
  signature: `0x${string}`;
}

/**
 * Links a wallet once it has signed the challenge. The challenge is consumed
 * in the same transaction as the link, so a signature works exactly once.
 * The first wallet of an account that has none (its sign-in named no
 * wallet) becomes its primary.
 */
@Injectable()
export class LinkWalletUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(command: LinkWalletCommand, now = new Date()): Promise<WalletEntity> {
    const address = command.address.toLowerCase();
    return this.dataSource.transaction(async (db) => {
      const challenge = await db.getRepository(WalletLinkChallengeEntity).findOne({
        where: { nonce: command.nonce, userId: command.userId, address },
        lock: { mode: 'pessimistic_write' },
      });
      if (!challenge || challenge.usedAt) {
        throw new AppError('nonce_expired', 'unknown or already used challenge; request a new one');
      }
      if (challenge.expiresAt.getTime() <= now.getTime()) {
        throw new AppError('nonce_expired', 'challenge expired; request a new one');
      }
      const valid = await verifyMessage({
        address: address as `0x${string}`,
        message: challenge.message,
        signature: command.signature,
      }).catch(() => false);
      if (!valid) {
        throw new AppError('invalid_signature', 'signature does not match the wallet');
      }

      await db
        .getRepository(WalletLinkChallengeEntity)
        .update({ nonce: challenge.nonce }, { usedAt: now });
      const wallets = db.getRepository(WalletEntity);
      const existing = await wallets.findOneBy({ address });
      if (existing) {
        if (existing.userId !== command.userId) {
          throw new AppError('wallet_already_linked', 'this wallet is linked to another account');
        }
        return existing;
      }
      // Locked: two first links at once must not both become the primary.
      const account: Array<{ primary_wallet: string | null }> = await db.query(
        `SELECT primary_wallet FROM users WHERE id = $1 FOR UPDATE`,
        [command.userId],
      );
      if (account.length === 0) {
        throw new AppError('unauthorized', 'no account yet: call POST /api/v1/auth/verify first');
      }
      // An account made by a sign-in that named no wallet: its first linked wallet is its primary.
      const isPrimary = account[0].primary_wallet === null;
      const linked = await wallets.save(
        wallets.create({
          address,
          userId: command.userId,
          isPrimary,
          verified: true,
          linkedAt: now,
        }),
      );
      if (isPrimary) {
        await db.query(`UPDATE users SET primary_wallet = $1 WHERE id = $2`, [
          address,
          command.userId,
        ]);
      }
      return linked;
    });
  }
}
