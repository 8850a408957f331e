import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import { ReadLimitsUseCase, type LimitsView } from './read-limits.use-case';

@ApiTags('limits')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/limits')
export class LimitsController {
  constructor(private readonly readLimits: ReadLimitsUseCase) {}

  @RequireScopes('account:read')
  @Get()
  @ApiOperation({
    summary: "The caller's pre-trade risk limits, where each comes from, and current usage",
  })
  limits(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<LimitsView> {
    return this.readLimits.execute(principal.userId, request.changeMark);
  }
}
