import { Module } from '@nestjs/common';
import { MarketsModule } from '../markets/markets.module';
import { SpreadModule } from '../spread/spread.module';
import { LimitsController } from './limits.controller';
import { MarketMids } from './market-mids';
import { ReadLimitsUseCase } from './read-limits.use-case';
import { RiskLimitsReader } from './risk-limits.reader';

/**
 * Pre-trade risk limits (issue 35): the operators' limits per user (cached,
 * exact on the next request), the venues' mids they value trades at, and
 * GET /api/v1/limits. Creates and amendments check them (trades module).
 */
@Module({
  imports: [MarketsModule, SpreadModule],
  controllers: [LimitsController],
  providers: [RiskLimitsReader, MarketMids, ReadLimitsUseCase],
  exports: [RiskLimitsReader, MarketMids],
})
export class RiskLimitsModule {}
