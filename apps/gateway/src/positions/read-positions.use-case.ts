import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountQueries } from '../accounts/account.queries';
import { callerAccounts } from '../venue-accounts/caller-accounts';
import { POSITIONS, VenueAccountReads } from '../venue-accounts/venue-account-reads';
import { readImpliedPositions, readResidualsLeft } from './implied-positions';
import { positionsView, type PositionsView } from './positions-view';

/**
 * GET /api/v1/positions: every venue account of the caller (each active
 * credential, and each account their fills touched) read from the venue,
 * beside what the caller's own fills imply and what their ended trades left
 * unhedged (residual_unhedged not unwound). Accounts are read in parallel;
 * one that fails answers its entries with an error and the rest still answer.
 */
@Injectable()
export class ReadPositionsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly account: AccountQueries,
    private readonly venues: VenueAccountReads,
  ) {}

  async execute(userId: string): Promise<PositionsView> {
    const [credentials, implied, residuals] = await Promise.all([
      this.account.credentials(userId),
      readImpliedPositions(this.dataSource.manager, userId),
      readResidualsLeft(this.dataSource.manager, userId),
    ]);
    const reads = await Promise.all(
      callerAccounts(credentials, implied).map(async (account) => ({
        ...account,
        read: await this.venues.read(userId, account, POSITIONS),
      })),
    );
    return positionsView(reads, implied, residuals);
  }
}
