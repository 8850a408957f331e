import Big from 'big.js';
import { RISK_LIMIT_NAMES, type RiskLimitName, type RiskLimitsRow } from '@sts/persistence';

/** Where a user's limit comes from: their own override, or the default for every user. */
export type LimitSource = 'user' | 'default';

export interface EffectiveLimit {
  value: Big;
  source: LimitSource;
}

/** The limits in force for one user; a limit absent here is no limit. */
export type EffectiveLimits = Partial<Record<RiskLimitName, EffectiveLimit>>;

/** Each limit: the user's own where set, else the default's, else none. */
export function effectiveLimitsOf(
  own: RiskLimitsRow | undefined,
  defaults: RiskLimitsRow | undefined,
): EffectiveLimits {
  const limits: EffectiveLimits = {};
  for (const name of RISK_LIMIT_NAMES) {
    const mine = own?.limits[name] ?? null;
    const fallback = defaults?.limits[name] ?? null;
    if (mine !== null) {
      limits[name] = { value: new Big(mine), source: 'user' };
    } else if (fallback !== null) {
      limits[name] = { value: new Big(fallback), source: 'default' };
    }
  }
  return limits;
}

export const hasLimits = (limits: EffectiveLimits): boolean => Object.keys(limits).length > 0;

/** Limits that count or value the user's other live trades (read under the user's risk lock). */
export const countsLiveTrades = (limits: EffectiveLimits): boolean =>
  Boolean(
    limits.max_open_notional ?? limits.max_open_notional_per_market ?? limits.max_live_trades,
  );

/** Limits that need the trade's notional (a `base` trade's at the venues' mid). */
export const valuesNotional = (limits: EffectiveLimits): boolean =>
  Boolean(
    limits.max_trade_notional ?? limits.max_open_notional ?? limits.max_open_notional_per_market,
  );
