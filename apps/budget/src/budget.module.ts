import { Module, type DynamicModule } from '@nestjs/common';
import type { VenueRegistry } from '@sts/domain';
import type { Logger, NatsConnection, Redis } from '@sts/platform';
import type { DataSource } from 'typeorm';
import { BudgetHandler } from './budget.handler';
import type { BudgetMetrics } from './budget.metrics';
import { BudgetRepository } from './budget.repository';
import { BudgetSweeper } from './budget.sweeper';
import { BudgetSettings } from './config/budget.settings';
import { SharePropagation } from './shares/share-propagation';
import { TradeBudgetRows } from './shares/trade-budget-rows';
import {
  BUDGET_METRICS,
  BUDGET_SETTINGS,
  DATA_SOURCE,
  LOGGER,
  NATS,
  REDIS,
  VENUES,
} from './tokens';
import { ReadBudgetUseCase } from './use-cases/read-budget/read-budget.use-case';
import { RebuildBudgetsUseCase } from './use-cases/rebuild-budgets/rebuild-budgets.use-case';
import { ReleaseBudgetUseCase } from './use-cases/release-budget/release-budget.use-case';
import { ReportCumulativeUseCase } from './use-cases/report-cumulative/report-cumulative.use-case';
import { ReserveBudgetUseCase } from './use-cases/reserve-budget/reserve-budget.use-case';
import { SweepBudgetsUseCase } from './use-cases/sweep-budgets/sweep-budgets.use-case';
import { VenueTerms } from './venue-terms';

/** What the module is built from; connections are opened and closed by bootstrap. */
export interface BudgetModuleConfig {
  settings: BudgetSettings;
  venues: VenueRegistry;
  logger: Logger;
  nats: NatsConnection;
  redis: Redis;
  db: DataSource;
  metrics: BudgetMetrics;
}

@Module({})
export class BudgetModule {
  static forRoot(config: BudgetModuleConfig): DynamicModule {
    return {
      module: BudgetModule,
      providers: [
        { provide: BUDGET_SETTINGS, useValue: config.settings },
        { provide: VENUES, useValue: config.venues },
        { provide: LOGGER, useValue: config.logger },
        { provide: NATS, useValue: config.nats },
        { provide: REDIS, useValue: config.redis },
        { provide: DATA_SOURCE, useValue: config.db },
        { provide: BUDGET_METRICS, useValue: config.metrics },
        VenueTerms,
        BudgetRepository,
        TradeBudgetRows,
        SharePropagation,
        RebuildBudgetsUseCase,
        ReserveBudgetUseCase,
        ReleaseBudgetUseCase,
        ReadBudgetUseCase,
        ReportCumulativeUseCase,
        SweepBudgetsUseCase,
        BudgetHandler,
        BudgetSweeper,
      ],
    };
  }
}
