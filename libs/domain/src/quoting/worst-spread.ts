import type Big from 'big.js';
import { type SpreadBasis, type SpreadTerms, toAbsoluteSpread } from '../spread/spread';
import { eqToleranceAbsolute } from '../spread/spread-condition';
import { type Range, atLeast, atMost, between } from './price-range';
import { compare } from '../decimal/compare';

/**
 * The USD spreads "no worse than worst_spread". Worse means smaller for
 * gte/gt, larger for lte/lt, and for eq farther from the target than
 * worst_spread is.
 */
export const worstSpreadRange = (
  terms: SpreadTerms,
  worstSpread: Big,
  basis: SpreadBasis,
): Range => {
  const worst = toAbsoluteSpread(worstSpread, terms.spreadType, basis);
  switch (terms.condition) {
    case 'gte':
    case 'gt':
      return atLeast(worst);
    case 'lte':
    case 'lt':
      return atMost(worst);
    case 'eq': {
      const target = toAbsoluteSpread(terms.targetSpread, terms.spreadType, basis);
      const distance = worst.minus(target).abs();
      return between(target.minus(distance), target.plus(distance));
    }
  }
};

/**
 * Does worst_spread itself satisfy the condition (else the create is a 400)?
 * Both values are in the trade's spread_type, so directional conditions need
 * nothing else. For `eq` the band is half the coarser tick, which in bps and
 * percentage depends on H: pass the basis when a reference price is known.
 * Without one, `ticks` still knows its band (0.5), and the other units accept
 * only worst_spread equal to the target, refusing anything that might fall
 * outside the band. The aggressive quote also intersects with the condition,
 * so a worst_spread accepted here can never widen what the target allows.
 */
export const isWorstSpreadAllowed = (
  terms: SpreadTerms,
  worstSpread: Big,
  basis: SpreadBasis | null,
): boolean => {
  const target = terms.targetSpread;
  switch (terms.condition) {
    case 'gte':
      return compare(worstSpread, target) >= 0;
    case 'gt':
      return compare(worstSpread, target) > 0;
    case 'lte':
      return compare(worstSpread, target) <= 0;
    case 'lt':
      return compare(worstSpread, target) < 0;
    case 'eq': {
      if (basis !== null) {
        const distance = toAbsoluteSpread(worstSpread.minus(target).abs(), terms.spreadType, basis);
        return compare(distance, eqToleranceAbsolute(basis)) <= 0;
      }
      if (terms.spreadType === 'ticks') {
        return worstSpread.minus(target).abs().lte('0.5');
      }
      return compare(worstSpread, target) === 0;
    }
  }
};
