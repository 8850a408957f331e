import { Inject, Injectable } from '@nestjs/common';
import { isVenueId } from '@sts/domain';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { MarketCatalog } from '../markets/market-catalog';
import { CallerAccounts } from '../venue-accounts/caller-accounts';
import {
  BALANCES,
  POSITIONS,
  VenueAccountReads,
  type VenueAccount,
} from '../venue-accounts/venue-account-reads';
import {
  balancesView,
  marginAssetsOf,
  type AccountBalanceRead,
  type BalancesView,
} from './balances-view';
import { totalIsEquity } from './venue-balance-totals';

/**
 * GET /api/v1/balances: every venue account of the caller (as for the
 * positions: each active credential, and each account their fills touched),
 * its balances and positions read from the venue (the positions for their
 * unrealised PnL; each read cached and paid from the account's budget, so
 * the positions read also answers GET /positions in its window), the
 * margin assets from the venue's market list. Accounts are read in
 * parallel; one that fails answers with its error and the rest still answer.
 */
@Injectable()
export class ReadBalancesUseCase {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly accounts: CallerAccounts,
    private readonly venues: VenueAccountReads,
    private readonly markets: MarketCatalog,
  ) {}

  async execute(userId: string): Promise<BalancesView> {
    const accounts = (await this.accounts.of(userId)).filter((account) =>
      isVenueId(account.exchange),
    );
    return balancesView(await Promise.all(accounts.map((account) => this.read(userId, account))));
  }

  private async read(userId: string, account: VenueAccount): Promise<AccountBalanceRead> {
    const venue = this.config.venues[account.exchange as keyof GatewayConfig['venues']];
    const [balances, positions, margin] = await Promise.all([
      this.venues.read(userId, account, BALANCES),
      this.venues.read(userId, account, POSITIONS),
      this.marginAssets(account.exchange),
    ]);
    return {
      ...account,
      mode: venue.mode,
      totalIsEquity: totalIsEquity(venue),
      balances,
      positions,
      margin,
    };
  }

  private async marginAssets(exchange: string): Promise<AccountBalanceRead['margin']> {
    try {
      const markets = await this.markets.venueMarkets(exchange);
      return marginAssetsOf([...markets.values()].flat());
    } catch {
      return { error: `${exchange} market list unavailable: its margin assets are unknown` };
    }
  }
}
