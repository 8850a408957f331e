import type Big from 'big.js';
import { makerRules } from '../spread/legs';
import { gridEnds, narrowed } from './price-range';
import { type QuoteInput, spreadBasisOf } from './quote-input';
import { pricesForSpreads, validMakerPriceRange } from './valid-maker-price';
import { worstSpreadRange } from './worst-spread';

export interface AggressiveQuoteInput extends QuoteInput {
  /** In the trade's spread_type; when absent the peg is limited by the target alone. */
  worstSpread?: Big;
}

/**
 * quote_mode=aggressive: rest inside the maker venue's bid-ask, one tick from
 * crossing (best ask - tick for a buy, best bid + tick for a sell), pulled
 * back as far as needed so the projected spread is no worse than worst_spread
 * and still meets the condition. It is the most aggressive valid price, so
 * when the limit lies behind the touch the order rests behind the touch.
 */
export const aggressiveQuote = (input: AggressiveQuoteInput): Big | null => {
  const valid = validMakerPriceRange(input);
  if (valid === null) {
    return null;
  }
  const range =
    input.worstSpread === undefined
      ? valid
      : narrowed(
          valid,
          pricesForSpreads(
            input.makerLeg,
            input.hedgeReference,
            worstSpreadRange(input.terms, input.worstSpread, spreadBasisOf(input)),
          ),
        );
  const ends = gridEnds(range, makerRules(input.market, input.makerLeg).tickSize);
  if (ends === null) {
    return null;
  }
  // A buy is bounded above by the best ask, so `highest` is never null for it.
  return input.makerLeg === 'long' ? ends.highest : ends.lowest;
};
