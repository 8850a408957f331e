import Big from 'big.js';
import { isMultipleOf } from '../decimal/decimal-math';
import { isCrossedOrLocked } from '../market/market-rules';
import { makerRules } from '../spread/legs';
import {
  type SpreadBasis,
  type SpreadTerms,
  absoluteSpread,
  toAbsoluteSpread,
} from '../spread/spread';
import { eqToleranceAbsolute, satisfiesSpreadCondition } from '../spread/spread-condition';
import type { MakerLeg } from '../trade/trade-terms';
import {
  type LowerBoundedRange,
  type Range,
  atLeast,
  atMost,
  between,
  mirrored,
  narrowed,
  shifted,
} from './price-range';
import { type QuoteInput, spreadBasisOf } from './quote-input';
import { compare, signOf } from '../decimal/compare';

/** The USD spreads that satisfy the trade's condition. */
export const conditionSpreadRange = (terms: SpreadTerms, basis: SpreadBasis): Range => {
  const target = toAbsoluteSpread(terms.targetSpread, terms.spreadType, basis);
  switch (terms.condition) {
    case 'gte':
      return atLeast(target);
    case 'gt':
      return atLeast(target, false);
    case 'lte':
      return atMost(target);
    case 'lt':
      return atMost(target, false);
    case 'eq': {
      const tolerance = eqToleranceAbsolute(basis);
      return between(target.minus(tolerance), target.plus(tolerance));
    }
  }
};

/**
 * The maker prices whose projected spread against H lies in `spreads`. A long
 * maker's spread is H - P, so the range is mirrored; a short maker's is P - H.
 */
export const pricesForSpreads = (makerLeg: MakerLeg, hedgeReference: Big, spreads: Range): Range =>
  makerLeg === 'long' ? mirrored(spreads, hedgeReference) : shifted(spreads, hedgeReference);

const POSITIVE: LowerBoundedRange = { lower: { value: new Big(0), inclusive: false }, upper: null };

/** Post-only: a buy must stay below the best ask, a sell above the best bid; prices are positive. */
const restingPriceRange = (input: QuoteInput): LowerBoundedRange =>
  input.makerLeg === 'long'
    ? narrowed(POSITIVE, atMost(input.makerTouch.bestAsk, false))
    : narrowed(POSITIVE, atLeast(input.makerTouch.bestBid, false));

/**
 * Every price the maker may rest at now: post-only and meeting the condition.
 * Null when the inputs cannot be trusted (crossed or locked maker book, H not
 * positive): the trade then holds no order and waits.
 */
export const validMakerPriceRange = (input: QuoteInput): LowerBoundedRange | null => {
  if (isCrossedOrLocked(input.makerTouch) || signOf(input.hedgeReference) <= 0) {
    return null;
  }
  const spreads = conditionSpreadRange(input.terms, spreadBasisOf(input));
  return narrowed(
    restingPriceRange(input),
    pricesForSpreads(input.makerLeg, input.hedgeReference, spreads),
  );
};

/**
 * The quote rule stated directly, independent of the range arithmetic above:
 * on the maker tick grid, post-only, and the projected spread of a fill at
 * `price` against H satisfies the condition. Used to check fills and quotes.
 */
export const isValidMakerPrice = (price: Big, input: QuoteInput): boolean => {
  const { makerTouch, makerLeg, hedgeReference } = input;
  if (isCrossedOrLocked(makerTouch) || signOf(hedgeReference) <= 0 || signOf(price) <= 0) {
    return false;
  }
  if (!isMultipleOf(price, makerRules(input.market, makerLeg).tickSize)) {
    return false;
  }
  const postOnly =
    makerLeg === 'long'
      ? compare(price, makerTouch.bestAsk) < 0
      : compare(price, makerTouch.bestBid) > 0;
  if (!postOnly) {
    return false;
  }
  const spread = absoluteSpread(makerLeg, price, hedgeReference);
  return satisfiesSpreadCondition(spread, input.terms, spreadBasisOf(input));
};
