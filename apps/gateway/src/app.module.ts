import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuthGuard } from '@sts/auth';
import { AccountsModule } from './accounts/accounts.module';
import { BalancesModule } from './balances/balances.module';
import type { GatewayConfig } from './config/load-gateway-settings';
import { AppErrorFilter } from './errors/app-error.filter';
import { HealthController } from './health/health.controller';
import { ExchangesModule } from './exchanges/exchanges.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { MarketsModule } from './markets/markets.module';
import { PositionsModule } from './positions/positions.module';
import { QualityModule } from './quality/quality.module';
import { ResultsModule } from './results/results.module';
import { RiskLimitsModule } from './risk-limits/risk-limits.module';
import { SpreadModule } from './spread/spread.module';
import { TradesModule } from './trades/trades.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config),
        MaintenanceModule,
        ExchangesModule,
        AccountsModule,
        MarketsModule,
        SpreadModule,
        RiskLimitsModule,
        PositionsModule,
        BalancesModule,
        TradesModule,
        QualityModule,
        ResultsModule,
        WebhooksModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: AppErrorFilter },
      ],
    };
  }
}
