import type Big from 'big.js';
import { isMultipleOf } from '../decimal/decimal-math';
import type { LegRules } from '../market/market-rules';
import { compare, signOf } from '../decimal/compare';
import { notionalAtLeast } from './notional-at-least';

/** Does an order of `size` at `price` meet the venue's min_size and min_notional exactly? */
export const meetsVenueMinimums = (size: Big, rules: LegRules, price: Big): boolean =>
  compare(size, rules.minSize) >= 0 &&
  (rules.minNotional === undefined || notionalAtLeast(size, price, rules.minNotional));

/** Is `size` an order the venue accepts: a whole number of lots, at or above its minimums? */
export const isAcceptableOrderSize = (size: Big, rules: LegRules, price: Big): boolean =>
  signOf(size) > 0 && isMultipleOf(size, rules.lotSize) && meetsVenueMinimums(size, rules, price);
