import type Big from 'big.js';
import { type SpreadBasis, type SpreadTerms, toAbsoluteSpread } from './spread';
import { compare } from '../decimal/compare';

/**
 * Half the coarser tick, in USD. `eq` accepts a spread within this of the
 * target. We measure the band in USD and convert it with the same H as the
 * target, so `eq` means the same price band whatever the spread_type: in bps
 * it is `10000 * tick / 2 / H`, in percentage `100 * tick / 2 / H`, in ticks
 * 0.5. A band one coarser tick wide always holds a price on the maker grid
 * (whose tick is at most the coarser one), so an `eq` trade can always quote.
 */
export const eqToleranceAbsolute = (basis: SpreadBasis): Big => basis.coarserTickSize.times('0.5');

/**
 * Does a USD spread satisfy the trade's condition? Compared in USD against the
 * exactly converted target, so no quotient is ever rounded at the boundary.
 */
export const satisfiesSpreadCondition = (
  absolute: Big,
  terms: SpreadTerms,
  basis: SpreadBasis,
): boolean => {
  const target = toAbsoluteSpread(terms.targetSpread, terms.spreadType, basis);
  switch (terms.condition) {
    case 'gte':
      return compare(absolute, target) >= 0;
    case 'gt':
      return compare(absolute, target) > 0;
    case 'lte':
      return compare(absolute, target) <= 0;
    case 'lt':
      return compare(absolute, target) < 0;
    case 'eq':
      return compare(absolute.minus(target).abs(), eqToleranceAbsolute(basis)) <= 0;
  }
};
