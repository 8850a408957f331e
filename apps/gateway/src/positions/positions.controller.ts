import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import type { PositionsView } from './positions-view';
import { ReadPositionsUseCase } from './read-positions.use-case';

@ApiTags('positions')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/positions')
export class PositionsController {
  constructor(private readonly readPositions: ReadPositionsUseCase) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({
    summary:
      "The caller's positions per wallet, market and venue: the venue's own, what the service's fills imply, and the difference flagged",
  })
  positions(@CurrentPrincipal() principal: Principal): Promise<PositionsView> {
    return this.readPositions.execute(principal.userId);
  }
}
