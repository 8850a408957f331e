import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import { ReadResultsUseCase, type ResultsView } from './read-results.use-case';
import { ResultsQuery } from './results.query';

@ApiTags('results')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/results')
export class ResultsController {
  constructor(private readonly readResults: ReadResultsUseCase) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({
    summary:
      "The caller's results over a window, per day, week, market or venue: volume, realised spread, fees, funding and net, in USD",
  })
  results(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ResultsQuery,
  ): Promise<ResultsView> {
    return this.readResults.execute(principal.userId, query);
  }
}
