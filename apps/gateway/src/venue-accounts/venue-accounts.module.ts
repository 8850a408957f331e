import { Module } from '@nestjs/common';
import { clientEgress } from '@sts/domain';
import { createVenueClient } from '@sts/venues';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { AccountsModule } from '../accounts/accounts.module';
import { TradesModule } from '../trades/trades.module';
import { AccountReaders, OPEN_ACCOUNT_CLIENT, type OpenAccountClient } from './account-readers';
import { CallerAccounts } from './caller-accounts';
import { VenueAccountReads } from './venue-account-reads';

/**
 * Reads of the caller's own venue accounts (positions, balances), through
 * each venue's client (paper: the simulator; live: ccxt) with the caller's
 * stored credential, one kept read-only client per account. Each read holds
 * a share of the account's rate budget while it runs (the budget service's
 * client, from TradesModule).
 */
@Module({
  imports: [AccountsModule, TradesModule],
  providers: [
    CallerAccounts,
    VenueAccountReads,
    AccountReaders,
    {
      provide: OPEN_ACCOUNT_CLIENT,
      inject: [GATEWAY_CONFIG],
      useFactory:
        (config: GatewayConfig): OpenAccountClient =>
        (venue, credential) =>
          createVenueClient(config.venues[venue as keyof GatewayConfig['venues']], credential, {
            env: { VENUE_SIM_URL: config.settings.venueSimUrl },
            bookDepth: 1,
            // The account's own egress: its reads spend that address's per-IP limit.
            egress: clientEgress(config.egressPlan, venue, credential.wallet),
          }),
    },
  ],
  exports: [CallerAccounts, VenueAccountReads, AccountReaders],
})
export class VenueAccountsModule {}
