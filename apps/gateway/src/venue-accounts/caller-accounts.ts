import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TradeRepository } from '@sts/persistence';
import { AccountQueries } from '../accounts/account.queries';
import type { VenueAccount } from './venue-account-reads';

/**
 * The caller's venue accounts: each one with an active credential, and each
 * one the caller's fills touched (a credential removed since still leaves
 * the account's position and margin to show, as unreadable). Wallets
 * lowercase, one entry per account, ordered by wallet then exchange.
 */
export function callerAccounts(
  credentials: ReadonlyArray<{ walletAddr: string; exchange: string; status: string }>,
  touched: readonly VenueAccount[],
): VenueAccount[] {
  const accounts = new Map<string, VenueAccount>();
  for (const { wallet, exchange } of [
    ...credentials
      .filter((row) => row.status === 'active')
      .map((row) => ({ wallet: row.walletAddr, exchange: row.exchange })),
    ...touched,
  ]) {
    const account = { wallet: wallet.toLowerCase(), exchange };
    accounts.set(`${account.wallet}\u0000${account.exchange}`, account);
  }
  return [...accounts.keys()].sort().map((key) => accounts.get(key)!);
}

/** callerAccounts read from the caller's credentials and the accounts their trades filled on. */
@Injectable()
export class CallerAccounts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly account: AccountQueries,
  ) {}

  async of(userId: string): Promise<VenueAccount[]> {
    const [credentials, filled] = await Promise.all([
      this.account.credentials(userId),
      new TradeRepository(this.dataSource.manager).impliedPositionsOf(userId),
    ]);
    return callerAccounts(credentials, filled);
  }
}
