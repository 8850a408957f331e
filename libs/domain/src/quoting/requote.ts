import type Big from 'big.js';
import { compare } from '../decimal/compare';

/**
 * What a quote cycle does with the resting maker order, given the price it
 * should rest at now (null: no valid price). A resting order whose price is
 * no longer the quote is replaced even when the book only moved: decisions 2
 * re-prices every quote on the next cycle after H or the maker touch moves.
 */
export type RequoteAction =
  | { kind: 'none' }
  | { kind: 'keep' }
  | { kind: 'place'; price: Big }
  | { kind: 'replace'; price: Big }
  | { kind: 'cancel' };

export const requoteAction = (resting: Big | null, quote: Big | null): RequoteAction => {
  if (quote === null) {
    return resting === null ? { kind: 'none' } : { kind: 'cancel' };
  }
  if (resting === null) {
    return { kind: 'place', price: quote };
  }
  return compare(resting, quote) === 0 ? { kind: 'keep' } : { kind: 'replace', price: quote };
};
