import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RiskLimitsRepository, type RiskLimitsRow } from '@sts/persistence';
import { ChangeFeed } from '../infrastructure/change-feed';
import { effectiveLimitsOf, type EffectiveLimits } from './effective-limits';

/** Rows by user id; the default under null. */
type LimitRows = Map<string | null, RiskLimitsRow>;

/**
 * The operators' risk limits, kept in memory like the switches
 * (MaintenanceReader): served only after a ChangeFeed fence, so a limit an
 * operator set before a request arrived holds for it; read again after any
 * change to `risk_limits` (its trigger's notice) or a lost feed. The table is
 * small (a row per user with an override, and the default).
 */
@Injectable()
export class RiskLimitsReader {
  private cached: LimitRows | null = null;
  private generation = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: ChangeFeed,
  ) {
    changes.subscribe((change) => {
      if (change === 'reset' || change.table === 'risk_limits') {
        this.generation += 1;
        this.cached = null;
      }
    });
  }

  /** `changeMark`: ChangeFeed.mark() taken when the request arrived, else now. */
  async limitsOf(userId: string, changeMark?: number): Promise<EffectiveLimits> {
    const rows = await this.rows(changeMark);
    return effectiveLimitsOf(rows.get(userId), rows.get(null));
  }

  private async rows(changeMark?: number): Promise<LimitRows> {
    if (this.cached && (await this.changes.fence(changeMark))) {
      // Read again after the fence: it may have brought a change.
      const fresh = this.cached as LimitRows | null;
      if (fresh) {
        return fresh;
      }
    }
    const generation = this.generation;
    const listening = this.changes.isListening;
    const all = await new RiskLimitsRepository(this.dataSource.manager).all();
    const rows: LimitRows = new Map(all.map((row) => [row.userId, row]));
    if (listening && generation === this.generation) {
      this.cached = rows;
    }
    return rows;
  }
}
