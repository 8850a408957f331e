import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import type { BalancesView } from './balances-view';
import { ReadBalancesUseCase } from './read-balances.use-case';

@ApiTags('balances')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/balances')
export class BalancesController {
  constructor(private readonly readBalances: ReadBalancesUseCase) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({
    summary:
      "Each of the caller's venue accounts: its margin-asset balance, equity and available margin, read from the venue, with totals in USD",
  })
  balances(@CurrentPrincipal() principal: Principal): Promise<BalancesView> {
    return this.readBalances.execute(principal.userId);
  }
}
