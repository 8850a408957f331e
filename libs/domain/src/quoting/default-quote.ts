import type Big from 'big.js';
import { ceilToStep, floorToStep } from '../decimal/decimal-math';
import { makerRules, makerSideTouch } from '../spread/legs';
import { gridEnds } from './price-range';
import { defaultQuoteInUnits, UNREPRESENTABLE } from './fixed-point-quote';
import type { QuoteInput } from './quote-input';
import { validMakerPriceRange } from './valid-maker-price';
import { compare } from '../decimal/compare';

/**
 * Default quoting: join the maker-side touch (best bid for a buy, best ask for
 * a sell) when it is a valid price, else rest at the valid price nearest to it.
 * Null when no valid price exists: the trade holds no resting order and waits.
 *
 * A touch off the tick grid (a venue glitch) is snapped away from the other
 * side of the book, so it is never made more aggressive than the market.
 */
export const defaultQuote = (input: QuoteInput): Big | null => {
  // The same answer on integers, allocating almost nothing, whenever the inputs fit a double.
  const inUnits = defaultQuoteInUnits(input);
  return inUnits === UNREPRESENTABLE ? defaultQuoteInDecimals(input) : inUnits;
};

/** The default quote in big.js decimals: the rule as stated, and the fallback of the integer path. */
export const defaultQuoteInDecimals = (input: QuoteInput): Big | null => {
  const range = validMakerPriceRange(input);
  if (range === null) {
    return null;
  }
  const tick = makerRules(input.market, input.makerLeg).tickSize;
  const ends = gridEnds(range, tick);
  if (ends === null) {
    return null;
  }
  const touch = makerSideTouch(input.makerLeg, input.makerTouch);
  const onGrid = input.makerLeg === 'long' ? floorToStep(touch, tick) : ceilToStep(touch, tick);
  if (compare(onGrid, ends.lowest) < 0) {
    return ends.lowest;
  }
  if (ends.highest !== null && compare(onGrid, ends.highest) > 0) {
    return ends.highest;
  }
  return onGrid;
};
