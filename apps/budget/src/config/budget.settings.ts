import { Expose } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CommonSettings, loadConfig } from '@sts/platform';

/** The budget service's settings; each is described in apps/budget/README.md. */
export class BudgetSettings extends CommonSettings {
  /** How often holders are reconciled with Postgres and every share is republished. */
  @Expose({ name: 'BUDGET_SWEEP_INTERVAL_MS' })
  @IsInt()
  @Min(100)
  @Max(600_000)
  sweepIntervalMs: number = 5_000;

  /**
   * How long a holder may exist without its trade row. The gateway reserves
   * before it inserts the row; past this the reservation is an orphan.
   */
  @Expose({ name: 'BUDGET_HOLDER_GRACE_MS' })
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  holderGraceMs: number = 30_000;

  /** Port of the service's `/metrics`, `/livez` and `/readyz` listener (0: any free port). */
  @Expose({ name: 'BUDGET_METRICS_PORT' })
  @IsInt()
  @Min(0)
  @Max(65_535)
  metricsPort: number = 9462;

  /** Shown in NATS connection lists and logs; defaults to budget-<pid>. */
  @Expose({ name: 'BUDGET_INSTANCE_ID' })
  @IsOptional()
  @IsString()
  instanceId?: string;
}

export const loadBudgetSettings = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(BudgetSettings, env);
