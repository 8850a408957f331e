import { Module } from '@nestjs/common';
import { BudgetClient } from '@sts/budget-client';
import type { NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from '../infrastructure/tokens';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { MarketsModule } from '../markets/markets.module';
import { RiskLimitsModule } from '../risk-limits/risk-limits.module';
import { GatewayOutbox } from './outbox/gateway-outbox';
import { TradeCostsReader } from './costs/trade-costs.reader';
import { TradeQueries } from './trade.queries';
import { TradesController } from './trades.controller';
import { AmendTradeRisk } from './use-cases/amend-trade/amend-trade-risk';
import { AmendTradeUseCase } from './use-cases/amend-trade/amend-trade.use-case';
import { CancelAllTradesUseCase } from './use-cases/cancel-trade/cancel-all-trades.use-case';
import { CancelTradeUseCase } from './use-cases/cancel-trade/cancel-trade.use-case';
import { BudgetServiceRateBudgets } from './use-cases/create-trade/budget-service.rate-budgets';
import { CreateTradeGroups } from './use-cases/create-trade/create-trade-groups';
import { CreateTradeRisk } from './use-cases/create-trade/create-trade-risk';
import { CreateTradeUseCase } from './use-cases/create-trade/create-trade.use-case';
import { RateBudgets } from './use-cases/create-trade/rate-budgets';
import { TradeControl } from './use-cases/trade-control';

@Module({
  imports: [MaintenanceModule, MarketsModule, RiskLimitsModule],
  controllers: [TradesController],
  providers: [
    TradeQueries,
    TradeCostsReader,
    TradeControl,
    GatewayOutbox,
    CreateTradeGroups,
    CreateTradeRisk,
    CreateTradeUseCase,
    AmendTradeUseCase,
    AmendTradeRisk,
    CancelTradeUseCase,
    CancelAllTradesUseCase,
    {
      provide: BudgetClient,
      inject: [NATS_CONNECTION, GATEWAY_CONFIG],
      useFactory: (nats: NatsConnection, config: GatewayConfig) =>
        new BudgetClient(nats, { natsPrefix: config.settings.natsPrefix }),
    },
    { provide: RateBudgets, useClass: BudgetServiceRateBudgets },
  ],
  exports: [BudgetClient, TradeQueries, TradeCostsReader],
})
export class TradesModule {}
