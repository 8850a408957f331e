import { Module } from '@nestjs/common';
import { MarketsModule } from '../markets/markets.module';
import { VenueAccountsModule } from '../venue-accounts/venue-accounts.module';
import { BalancesController } from './balances.controller';
import { ReadBalancesUseCase } from './read-balances.use-case';

/**
 * GET /api/v1/balances (issue 58): each venue account's margin-asset
 * balance, equity and available margin (VenueAccountsModule: read with the
 * caller's stored credential, cached, paid from the account's rate budget),
 * margin assets from the market catalog.
 */
@Module({
  imports: [VenueAccountsModule, MarketsModule],
  controllers: [BalancesController],
  providers: [ReadBalancesUseCase],
})
export class BalancesModule {}
