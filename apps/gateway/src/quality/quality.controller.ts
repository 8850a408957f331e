import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import { QualityQuery } from './quality.query';
import { ReadQualityReportUseCase, type QualityReportView } from './read-quality-report.use-case';
import { ReadTradeQualityUseCase } from './read-trade-quality.use-case';
import type { TradeQualityView } from './trade-quality';

@ApiTags('quality')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1')
export class QualityController {
  constructor(
    private readonly tradeQuality: ReadTradeQualityUseCase,
    private readonly qualityReport: ReadQualityReportUseCase,
  ) {}

  @RequireScopes('account:read')
  @Get('trades/:tradeId/quality')
  @ApiOperation({ summary: "One trade's execution quality: markouts, hedges, spread, times" })
  trade(
    @CurrentPrincipal() principal: Principal,
    @Param('tradeId') tradeId: string,
  ): Promise<TradeQualityView> {
    return this.tradeQuality.execute(principal.userId, tradeId);
  }

  @RequireScopes('account:read')
  @Get('quality')
  @ApiOperation({
    summary: "The caller's maker fills' markouts and hedge slippage over a window, grouped",
  })
  report(
    @CurrentPrincipal() principal: Principal,
    @Query() query: QualityQuery,
  ): Promise<QualityReportView> {
    return this.qualityReport.execute(principal.userId, query);
  }
}
