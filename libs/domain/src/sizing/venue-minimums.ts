import type Big from 'big.js';
import { isMultipleOf } from '../decimal/decimal-math';
import type { LegRules } from '../market/market-rules';

/** Does an order of `size` at `price` meet the venue's min_size and min_notional exactly? */
export const meetsVenueMinimums = (size: Big, rules: LegRules, price: Big): boolean =>
  size.gte(rules.minSize) &&
  (rules.minNotional === undefined || size.times(price).gte(rules.minNotional));

/** Is `size` an order the venue accepts: a whole number of lots, at or above its minimums? */
export const isAcceptableOrderSize = (size: Big, rules: LegRules, price: Big): boolean =>
  size.gt(0) && isMultipleOf(size, rules.lotSize) && meetsVenueMinimums(size, rules, price);
