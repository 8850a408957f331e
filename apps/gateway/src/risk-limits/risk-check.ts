import Big from 'big.js';
import { formatDecimal } from '@sts/domain';
import { AppError } from '@sts/platform';
import type { RiskLimitName } from '@sts/persistence';
import type { EffectiveLimits } from './effective-limits';
import type { Exposure } from './exposure';

/** What a create or an amendment would add, as its limits weigh it. */
export interface RiskCandidate {
  kind: 'create' | 'amend';
  market: string;
  /** The trade's target in USD; null when it does not grow (an amendment that keeps or lowers it). */
  notional: Big | null;
  /** The trade's max_slippage; null when it does not grow. */
  maxSlippage: Big | null;
}

/** One limit's measure of the request: what it would make the limited quantity, in words. */
interface Measure {
  limit: RiskLimitName;
  wouldBe: Big;
  /** After "<limit> <value>: ". */
  says: string;
}

const USD_LIMITS: ReadonlySet<RiskLimitName> = new Set([
  'max_trade_notional',
  'max_open_notional',
  'max_open_notional_per_market',
]);

const usd = (value: Big): string => `${formatDecimal(value)} USD`;

/**
 * The measures the request is held to, in the order they are checked:
 * max_slippage, max_trade_notional, max_live_trades (a create only),
 * max_open_notional, max_open_notional_per_market. `exposure` is the user's
 * other live trades (null when no limit counts them).
 */
function measuresOf(exposure: Exposure | null, candidate: RiskCandidate): Measure[] {
  const subject = candidate.kind === 'create' ? 'this trade' : 'this amendment';
  const { notional, maxSlippage } = candidate;
  const measures: Measure[] = [];
  if (maxSlippage) {
    const says = `${subject} asks for max_slippage ${formatDecimal(maxSlippage)}`;
    measures.push({ limit: 'max_slippage', wouldBe: maxSlippage, says });
  }
  if (notional) {
    const says = `${subject} would make the trade's notional ${usd(notional)}`;
    measures.push({ limit: 'max_trade_notional', wouldBe: notional, says });
  }
  if (!exposure) {
    return measures;
  }
  if (candidate.kind === 'create') {
    const live = new Big(exposure.liveTrades + 1);
    const says = `${subject} would make ${formatDecimal(live)} live trades`;
    measures.push({ limit: 'max_live_trades', wouldBe: live, says });
  }
  if (notional) {
    const open = exposure.openNotional.plus(notional);
    const inMarket = (exposure.byMarket.get(candidate.market) ?? new Big(0)).plus(notional);
    measures.push(
      {
        limit: 'max_open_notional',
        wouldBe: open,
        says: `${subject} would make open notional ${usd(open)}`,
      },
      {
        limit: 'max_open_notional_per_market',
        wouldBe: inMarket,
        says: `${subject} would make open notional on ${candidate.market} ${usd(inMarket)}`,
      },
    );
  }
  return measures;
}

/**
 * Throws 409 `risk_limit_exceeded` naming the first limit the request would
 * break, its value and what the request would make it (decisions section 8),
 * e.g. "max_open_notional 50000 USD: this trade would make open notional
 * 61250 USD". At the limit is allowed; one step past it is not.
 */
export function assertWithinLimits(
  limits: EffectiveLimits,
  exposure: Exposure | null,
  candidate: RiskCandidate,
): void {
  for (const { limit: name, wouldBe, says } of measuresOf(exposure, candidate)) {
    const limit = limits[name];
    if (limit && wouldBe.gt(limit.value)) {
      const value = USD_LIMITS.has(name) ? usd(limit.value) : formatDecimal(limit.value);
      throw new AppError('risk_limit_exceeded', `${name} ${value}: ${says}`, {
        details: {
          limit: name,
          limit_value: formatDecimal(limit.value),
          would_be: formatDecimal(wouldBe),
        },
      });
    }
  }
}
