import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { type Logger, PeriodicTask } from '@sts/platform';
import { BudgetSettings } from './config/budget.settings';
import { BUDGET_SETTINGS, LOGGER } from './tokens';
import { SweepBudgetsUseCase } from './use-cases/sweep-budgets/sweep-budgets.use-case';

/** Runs the sweep at boot and then every BUDGET_SWEEP_INTERVAL_MS, one run at a time. */
@Injectable()
export class BudgetSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(
    sweep: SweepBudgetsUseCase,
    @Inject(BUDGET_SETTINGS) settings: BudgetSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.task = new PeriodicTask(() => sweep.run(), {
      intervalMs: settings.sweepIntervalMs,
      runAtStart: true,
      ref: true,
      onError: (error) => logger.warn({ err: error }, 'budget sweep failed; retrying'),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }
}
