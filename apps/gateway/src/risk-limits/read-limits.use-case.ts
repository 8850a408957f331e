import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { formatDecimal } from '@sts/domain';
import { readLiveTerms, RISK_LIMIT_NAMES, type RiskLimitName } from '@sts/persistence';
import type { LimitSource } from './effective-limits';
import { exposureOf } from './exposure';
import { MarketMids } from './market-mids';
import { RiskLimitsReader } from './risk-limits.reader';

export interface LimitsView {
  /** Each limit in force and where it comes from; null: no limit. */
  limits: Record<RiskLimitName, { value: string; source: LimitSource } | null>;
  usage: {
    open_notional: string;
    open_notional_by_market: Record<string, string>;
    live_trades: number;
  };
  /** When the usage was valued (base targets at the venues' mids of that moment). */
  valued_at: string;
}

/** GET /api/v1/limits: the caller's effective limits and what their live trades hold against them. */
@Injectable()
export class ReadLimitsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: RiskLimitsReader,
    private readonly mids: MarketMids,
  ) {}

  async execute(userId: string, changeMark?: number): Promise<LimitsView> {
    const [limits, rows] = await Promise.all([
      this.reader.limitsOf(userId, changeMark),
      readLiveTerms(this.dataSource.manager, userId),
    ]);
    const exposure = await exposureOf(rows, this.mids);
    return {
      limits: Object.fromEntries(
        RISK_LIMIT_NAMES.map((name) => {
          const limit = limits[name];
          return [name, limit ? { value: formatDecimal(limit.value), source: limit.source } : null];
        }),
      ) as LimitsView['limits'],
      usage: {
        open_notional: formatDecimal(exposure.openNotional),
        open_notional_by_market: Object.fromEntries(
          [...exposure.byMarket].map(([market, notional]) => [market, formatDecimal(notional)]),
        ),
        live_trades: exposure.liveTrades,
      },
      valued_at: new Date().toISOString(),
    };
  }
}
