import type Big from 'big.js';
import { ceilToStep, floorToStep } from '../decimal/decimal-math';
import { type MakerSizingInput, makerSizeMeetsMinimums } from '../sizing/maker-order-size';
import { makerRules } from '../spread/legs';
import { absoluteSpread } from '../spread/spread';
import { satisfiesSpreadCondition } from '../spread/spread-condition';
import type { QuoteMode } from '../trade/trade-terms';
import type { AggressiveQuoteInput } from './aggressive-quote';
import { contains } from './price-range';
import { type QuoteInput, spreadBasisOf } from './quote-input';
import { worstSpreadRange } from './worst-spread';
import { signOf } from '../decimal/compare';

/**
 * The price a quote takes when neither the spread condition nor worst_spread
 * holds it back, which only the maker touch decides: the default quote joins
 * the maker-side touch (snapped onto the grid away from the other side), the
 * aggressive one rests a tick from crossing. Null when that is not a price.
 */
export const touchQuote = (
  mode: QuoteMode,
  input: Pick<QuoteInput, 'makerLeg' | 'market' | 'makerTouch'>,
): Big | null => {
  const tick = makerRules(input.market, input.makerLeg).tickSize;
  const { bestBid, bestAsk } = input.makerTouch;
  const long = input.makerLeg === 'long';
  let price: Big;
  if (mode === 'default') {
    price = long ? floorToStep(bestBid, tick) : ceilToStep(bestAsk, tick);
  } else {
    price = long ? ceilToStep(bestAsk, tick).minus(tick) : floorToStep(bestBid, tick).plus(tick);
  }
  return signOf(price) > 0 ? price : null;
};

/** A maker order the last quote cycle settled on. */
export interface SettledQuote {
  price: Big;
  size: Big;
}

/**
 * After H alone moved (same maker touch, terms and fills), is a quote that sat
 * at the touch price (`touchQuote` of that touch) still the quote? Exactly
 * when H is still a price and the touch price still meets the
 * condition (and, for the aggressive quote, worst_spread) at the new H, and
 * its size still meets both venues' minimums there: the quote rules never
 * prefer another price to a valid touch price, and the size depends on H only
 * through the hedge venue's min_notional. A quote the condition moved off the
 * touch price is not covered: its price moves with H.
 */
export const touchQuoteHolds = (
  mode: QuoteMode,
  quote: SettledQuote,
  input: AggressiveQuoteInput,
): boolean => {
  if (signOf(input.hedgeReference) <= 0) {
    return false;
  }
  const spread = absoluteSpread(input.makerLeg, quote.price, input.hedgeReference);
  const basis = spreadBasisOf(input);
  if (!satisfiesSpreadCondition(spread, input.terms, basis)) {
    return false;
  }
  if (
    mode === 'aggressive' &&
    input.worstSpread !== undefined &&
    !contains(worstSpreadRange(input.terms, input.worstSpread, basis), spread)
  ) {
    return false;
  }
  const sizing: MakerSizingInput = {
    makerLeg: input.makerLeg,
    market: input.market,
    makerPrice: quote.price,
    hedgeReference: input.hedgeReference,
  };
  return makerSizeMeetsMinimums(quote.size, sizing);
};
