import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TradeRepository, WalletEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';

/**
 * Unlinks a wallet and, with it, its venue credentials. Never the primary
 * wallet, never while a live trade uses it: the wallet row is locked so a
 * concurrent trade create (which locks it for share) cannot slip in between.
 */
@Injectable()
export class UnlinkWalletUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(userId: string, rawAddress: string): Promise<void> {
    const address = rawAddress.toLowerCase();
    await this.dataSource.transaction(async (db) => {
      const wallet = await db.getRepository(WalletEntity).findOne({
        where: { address, userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!wallet) {
        throw new AppError('wallet_not_found', 'wallet not found');
      }
      if (wallet.isPrimary) {
        throw new AppError('wallet_is_primary', 'the primary wallet cannot be unlinked');
      }
      const live = await new TradeRepository(db).countLiveOnWallet(userId, address);
      if (live > 0) {
        throw new AppError(
          'wallet_has_live_trades',
          `wallet has ${live} live trade(s); cancel them first`,
        );
      }
      await db.getRepository(WalletEntity).delete({ address, userId });
    });
  }
}
