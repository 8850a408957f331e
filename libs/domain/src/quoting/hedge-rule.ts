import type Big from 'big.js';

/**
 * One linear rule on H for a fixed maker price: `slope * H + intercept`
 * compared with zero. Every spread rule of a quote is one or two of these,
 * since the USD spread at a price is linear in H (H - P for a long maker,
 * P - H for a short one) and so is a target in any spread_type (a fixed USD
 * amount for absolute and ticks, a share of H for percentage and bps).
 */
export interface HedgeRule {
  slope: Big;
  /** The intercept less the price's own part (less P for a long maker, plus P for a short one). */
  offset: Big;
  /** `min`: the value must be at least zero (above it when strict); `max`: at most. */
  bound: 'min' | 'max';
  strict: boolean;
}

/** Whether a rule whose value has sign `sign` (-1, 0 or 1) holds. */
export function holdsWithSign(rule: HedgeRule, sign: number): boolean {
  if (rule.bound === 'min') {
    return rule.strict ? sign > 0 : sign >= 0;
  }
  return rule.strict ? sign < 0 : sign <= 0;
}
