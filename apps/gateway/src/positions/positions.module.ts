import { Module } from '@nestjs/common';
import { createVenueClient } from '@sts/venues';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { AccountsModule } from '../accounts/accounts.module';
import { TradesModule } from '../trades/trades.module';
import { PositionsController } from './positions.controller';
import { ReadPositionsUseCase } from './read-positions.use-case';
import { AccountReaders, OPEN_ACCOUNT_CLIENT, type OpenAccountClient } from './account-readers';
import { VenuePositionReads } from './venue-position-reads';

/**
 * GET /api/v1/positions (issue 34): the venues' own positions of the
 * caller's accounts, read through each venue's client (paper: the simulator;
 * live: ccxt) with the caller's stored credential, beside the positions the
 * execution log implies. Each read holds a share of the account's rate
 * budget while it runs (the budget service's client, from TradesModule).
 */
@Module({
  imports: [AccountsModule, TradesModule],
  controllers: [PositionsController],
  providers: [
    ReadPositionsUseCase,
    VenuePositionReads,
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
          }),
    },
  ],
})
export class PositionsModule {}
