import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExchangeCredentialEntity, WalletEntity } from '@sts/persistence';

/** Read side of the account: always filtered by the authenticated user. */
@Injectable()
export class AccountQueries {
  constructor(private readonly dataSource: DataSource) {}

  wallets(userId: string): Promise<WalletEntity[]> {
    return this.dataSource
      .getRepository(WalletEntity)
      .find({ where: { userId }, order: { linkedAt: 'ASC', address: 'ASC' } });
  }

  credentials(userId: string): Promise<ExchangeCredentialEntity[]> {
    return this.dataSource
      .getRepository(ExchangeCredentialEntity)
      .find({ where: { userId }, order: { addedAt: 'ASC', exchange: 'ASC' } });
  }
}
