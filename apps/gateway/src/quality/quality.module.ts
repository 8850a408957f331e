import { Module } from '@nestjs/common';
import { TradesModule } from '../trades/trades.module';
import { QualityController } from './quality.controller';
import { ReadQualityReportUseCase } from './read-quality-report.use-case';
import { ReadTradeQualityUseCase } from './read-trade-quality.use-case';

/** Execution quality (issue 60): markouts and hedge slippage, per trade and over a window. */
@Module({
  imports: [TradesModule],
  controllers: [QualityController],
  providers: [ReadTradeQualityUseCase, ReadQualityReportUseCase],
})
export class QualityModule {}
