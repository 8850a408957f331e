import { Expose } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { EgressPlan } from '@sts/domain';
import { CommonSettings, loadConfig, loadEgressPlan } from '@sts/platform';

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

  /**
   * The deployment's egress addresses and which venue accounts use each
   * (`EGRESS_PLAN` / `EGRESS_PLAN_FILE`, read by loadEgressPlan): a venue's
   * per-IP limit is divided per egress. Not an env field of its own: set by
   * loadBudgetSettings.
   */
  egressPlan!: EgressPlan;
}

/**
 * The settings and the egress plan, both read once at boot: a plan naming an
 * unknown egress or venue throws ConfigError here, before any connection is
 * opened, as a bad setting does.
 */
export function loadBudgetSettings(
  env: Record<string, string | undefined> = process.env,
): BudgetSettings {
  const settings = loadConfig(BudgetSettings, env);
  settings.egressPlan = loadEgressPlan(env);
  return settings;
}
