import { Module } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { publicEgress } from '@sts/domain';
import { createVenueClient } from '@sts/venues';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { MarketsModule } from '../markets/markets.module';
import { ReadSpreadUseCase } from './read-spread.use-case';
import { SpreadController } from './spread.controller';
import { OPEN_BOOK_CLIENT, VenueBooks, type OpenBookClient } from './venue-books';

/**
 * GET /api/v1/markets/{market}/spread: the books of both venues, read through
 * each venue's client as the workers read them (paper: the simulator's
 * signed stream under an identity of the gateway's own; live: ccxt's public
 * book stream, no credential).
 */
@Module({
  imports: [MarketsModule],
  controllers: [SpreadController],
  providers: [
    ReadSpreadUseCase,
    VenueBooks,
    {
      provide: OPEN_BOOK_CLIENT,
      inject: [GATEWAY_CONFIG],
      useFactory:
        (config: GatewayConfig): OpenBookClient =>
        (venue, identity) => {
          const venueConfig = config.venues[venue as keyof GatewayConfig['venues']];
          const paper = venueConfig.mode === 'paper';
          return createVenueClient(
            venueConfig,
            paper
              ? { apiKey: identity, apiSecret: randomBytes(16).toString('hex'), wallet: identity }
              : { apiKey: '', apiSecret: '', wallet: '' },
            {
              env: { VENUE_SIM_URL: config.settings.venueSimUrl },
              bookDepth: 1,
              // Public books, of no account: the plan's public egress.
              egress: publicEgress(config.egressPlan),
            },
          );
        },
    },
  ],
  // Risk limits value trades at the mid of these same books.
  exports: [VenueBooks],
})
export class SpreadModule {}
