import type Big from 'big.js';
import { compare } from '../decimal/compare';
import { makerRules } from '../spread/legs';
import { absoluteSpread } from '../spread/spread';
import type { QuoteMode } from '../trade/trade-terms';
import type { AggressiveQuoteInput } from './aggressive-quote';
import { contains } from './price-range';
import { spreadBasisOf } from './quote-input';
import { touchQuote } from './touch-quote';
import { isValidMakerPrice } from './valid-maker-price';
import { worstSpreadRange } from './worst-spread';

/**
 * How much a book move made a resting maker order wrong, most urgent first:
 * - `at_risk`: a fill at its price would break the trade's rules now (the
 *   price crosses or locks the maker touch, misses the spread condition at
 *   the new H, or is worse than worst_spread), or the maker book cannot be
 *   quoted on: the order must move or come down before it fills;
 * - `off_touch`: it is still valid, but the price the quote takes at the
 *   touch lies more than `OFF_TOUCH_TOLERANCE_TICKS` maker ticks ahead of it
 *   (toward the other side) and is valid too: it waits behind a queue it
 *   could lead;
 * - `routine`: anything else (no order resting, an order the condition holds
 *   back behind the touch, a move of a tick or less, an order ahead of the
 *   touch).
 *
 * `RestingQuoteCheck` is the same rule compiled for one order, cheap enough
 * for every trade a move wakes; this is its statement.
 *
 * When one move wakes many trades, their re-quotes run in this order.
 */
export type RequoteUrgency = 'at_risk' | 'off_touch' | 'routine';

export const REQUOTE_URGENCIES: readonly RequoteUrgency[] = ['at_risk', 'off_touch', 'routine'];

/** Maker ticks a valid order may sit from its touch price before its re-quote counts as off the touch. */
export const OFF_TOUCH_TOLERANCE_TICKS = 1;

/** The more urgent of two. */
export const moreUrgent = (a: RequoteUrgency, b: RequoteUrgency): RequoteUrgency =>
  REQUOTE_URGENCIES.indexOf(a) <= REQUOTE_URGENCIES.indexOf(b) ? a : b;

/** The quote rules at `price` now: valid (post-only, condition) and, for the aggressive quote, worst_spread. */
const meetsQuoteRules = (mode: QuoteMode, price: Big, input: AggressiveQuoteInput): boolean => {
  if (!isValidMakerPrice(price, input)) {
    return false;
  }
  if (mode !== 'aggressive' || input.worstSpread === undefined) {
    return true;
  }
  const spread = absoluteSpread(input.makerLeg, price, input.hedgeReference);
  return contains(worstSpreadRange(input.terms, input.worstSpread, spreadBasisOf(input)), spread);
};

/** The urgency of re-quoting an order resting at `restingPrice` (null: none rests) on `input`'s books. */
export const requoteUrgency = (
  mode: QuoteMode,
  restingPrice: Big | null,
  input: AggressiveQuoteInput,
): RequoteUrgency => {
  if (restingPrice === null) {
    return 'routine';
  }
  if (!meetsQuoteRules(mode, restingPrice, input)) {
    return 'at_risk';
  }
  const touchPrice = touchQuote(mode, input);
  if (touchPrice === null) {
    return 'routine';
  }
  const tick = makerRules(input.market, input.makerLeg).tickSize;
  const ahead =
    input.makerLeg === 'long' ? touchPrice.minus(restingPrice) : restingPrice.minus(touchPrice);
  if (compare(ahead, tick.times(OFF_TOUCH_TOLERANCE_TICKS)) <= 0) {
    return 'routine';
  }
  return meetsQuoteRules(mode, touchPrice, input) ? 'off_touch' : 'routine';
};
