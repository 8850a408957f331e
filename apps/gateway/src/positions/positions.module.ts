import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { VenueAccountsModule } from '../venue-accounts/venue-accounts.module';
import { PositionsController } from './positions.controller';
import { ReadPositionsUseCase } from './read-positions.use-case';

/**
 * GET /api/v1/positions (issue 34): the venues' own positions of the
 * caller's accounts (VenueAccountsModule: read with the caller's stored
 * credential, cached, paid from the account's rate budget), beside the
 * positions the execution log implies.
 */
@Module({
  imports: [AccountsModule, VenueAccountsModule],
  controllers: [PositionsController],
  providers: [ReadPositionsUseCase],
})
export class PositionsModule {}
