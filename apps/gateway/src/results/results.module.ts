import { Module } from '@nestjs/common';
import { VenueAccountsModule } from '../venue-accounts/venue-accounts.module';
import { FundingCollector } from './funding-collector';
import { ReadResultsUseCase } from './read-results.use-case';
import { ResultsController } from './results.controller';

/**
 * GET /api/v1/results (issue 58): the caller's fills and the funding their
 * positions earned, over a window, grouped. Funding is read from the venues
 * with the caller's credential through the accounts' kept readers, within
 * the account's rate budget (VenueAccountsModule).
 */
@Module({
  imports: [VenueAccountsModule],
  controllers: [ResultsController],
  providers: [ReadResultsUseCase, FundingCollector],
})
export class ResultsModule {}
