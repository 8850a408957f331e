import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CredentialStore, TradeRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';

/** Removes a venue credential unless a live trade still trades with it. */
@Injectable()
export class RemoveCredentialUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: CredentialStore,
  ) {}

  async execute(userId: string, exchange: string, rawWallet: string): Promise<void> {
    const wallet = rawWallet.toLowerCase();
    const live = await new TradeRepository(this.dataSource.manager).countLiveOnAccount(
      userId,
      exchange,
      wallet,
    );
    if (live > 0) {
      throw new AppError(
        'wallet_has_live_trades',
        `credential is used by ${live} live trade(s); cancel them first`,
      );
    }
    if (!(await this.store.remove(userId, exchange, wallet))) {
      throw new AppError('credential_not_found', 'credential not found');
    }
  }
}
