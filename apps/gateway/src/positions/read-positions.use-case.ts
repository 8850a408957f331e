import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountQueries } from '../accounts/account.queries';
import { readImpliedPositions, readResidualsLeft } from './implied-positions';
import { positionsView, type PositionsView } from './positions-view';
import { VenuePositionReads } from './venue-position-reads';

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
    private readonly venues: VenuePositionReads,
  ) {}

  async execute(userId: string): Promise<PositionsView> {
    const [credentials, implied, residuals] = await Promise.all([
      this.account.credentials(userId),
      readImpliedPositions(this.dataSource.manager, userId),
      readResidualsLeft(this.dataSource.manager, userId),
    ]);
    const accounts = new Map<string, { wallet: string; exchange: string }>();
    for (const { walletAddr, exchange } of [
      ...credentials
        .filter((row) => row.status === 'active')
        .map((row) => ({ walletAddr: row.walletAddr, exchange: row.exchange })),
      ...implied.map((row) => ({ walletAddr: row.wallet, exchange: row.exchange })),
    ]) {
      const wallet = walletAddr.toLowerCase();
      accounts.set(`${wallet}\u0000${exchange}`, { wallet, exchange });
    }
    const reads = await Promise.all(
      [...accounts.values()].map(async ({ wallet, exchange }) => ({
        wallet,
        exchange,
        read: await this.venues.read(userId, exchange, wallet),
      })),
    );
    return positionsView(reads, implied, residuals);
  }
}
