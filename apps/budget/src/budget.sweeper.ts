import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Logger } from '@sts/platform';
import { BudgetSettings } from './config/budget.settings';
import { BUDGET_SETTINGS, LOGGER } from './tokens';
import { SweepBudgetsUseCase } from './use-cases/sweep-budgets/sweep-budgets.use-case';

/** Runs the sweep at boot and then every BUDGET_SWEEP_INTERVAL_MS, one run at a time. */
@Injectable()
export class BudgetSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly sweep: SweepBudgetsUseCase,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.tick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private tick(): void {
    this.current = this.sweep
      .run()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'budget sweep failed; retrying'))
      .finally(() => {
        this.current = undefined;
        if (!this.stopped) {
          this.timer = setTimeout(() => this.tick(), this.settings.sweepIntervalMs);
        }
      });
  }
}
