import Big from 'big.js';
import {
  ceilToStep,
  floorToStep,
  isMultipleOf,
  maxOf,
  stepsToReach,
} from '../decimal/decimal-math';
import { type TradeMarket, coarserLotSize } from '../market/market-rules';
import { hedgeRules, makerRules } from '../spread/legs';
import type { MakerLeg, SizeType } from '../trade/trade-terms';
import { remainingBaseSize } from './size-type';
import { notionalAtLeast } from './notional-at-least';
import { meetsVenueMinimums } from './venue-minimums';
import { compare, signOf } from '../decimal/compare';

/**
 * Head-room on min_notional when sizing a maker order. A maker order exactly
 * at the hedge venue's min_notional would become unhedgeable in one order if
 * H fell before the hedge; 5 % keeps a full fill hedgeable in one order
 * through a fall of H of up to 4.7 % (1 - 1/1.05).
 */
export const MIN_NOTIONAL_HEADROOM = new Big('1.05');

export interface MakerSizingInput {
  makerLeg: MakerLeg;
  market: TradeMarket;
  /** The price the maker order rests at. */
  makerPrice: Big;
  /** H: the price the hedge of a fill would be sent at. */
  hedgeReference: Big;
}

/** Does `size` meet the maker venue's minimums at P and the hedge venue's at H (with head-room)? */
export const makerSizeMeetsMinimums = (size: Big, input: MakerSizingInput): boolean => {
  const hedge = hedgeRules(input.market, input.makerLeg);
  return (
    meetsVenueMinimums(size, makerRules(input.market, input.makerLeg), input.makerPrice) &&
    compare(size, hedge.minSize) >= 0 &&
    (hedge.minNotional === undefined ||
      notionalAtLeast(size, input.hedgeReference, hedge.minNotional, MIN_NOTIONAL_HEADROOM))
  );
};

/**
 * The smallest maker order: a multiple of the coarser lot that meets both
 * venues' min_size and min_notional (maker valued at P, hedge at H).
 */
export const minimumMakerOrderSize = (input: MakerSizingInput): Big => {
  const lot = coarserLotSize(input.market);
  const maker = makerRules(input.market, input.makerLeg);
  const hedge = hedgeRules(input.market, input.makerLeg);
  const floors = [ceilToStep(maker.minSize, lot), ceilToStep(hedge.minSize, lot)];
  if (maker.minNotional) {
    floors.push(stepsToReach(maker.minNotional, input.makerPrice, lot));
  }
  if (hedge.minNotional) {
    floors.push(
      stepsToReach(hedge.minNotional.times(MIN_NOTIONAL_HEADROOM), input.hedgeReference, lot),
    );
  }
  let size = maxOf(lot, ...floors);
  // Each floor is exact; the check only guards the rule above against a change of either.
  while (!makerSizeMeetsMinimums(size, input)) {
    size = size.plus(lot);
  }
  return size;
};

export interface MakerOrderSizeInput extends MakerSizingInput {
  sizeType: SizeType;
  /** target_size - filled_size, in the trade's size_type. */
  remaining: Big;
  /**
   * Maker fills not hedged because they are below the hedge venue's lot or
   * minimums: they wait for the next fill, which is hedged together with them.
   */
  unhedgedResidue?: Big;
}

export type MakerOrderSizing =
  | { kind: 'order'; size: Big }
  /**
   * What is left cannot make one acceptable order: nothing more can fill and
   * the trade is done. remainingBase (zero when the target was met exactly)
   * is what stays unfilled.
   */
  | { kind: 'too_small'; remainingBase: Big };

/**
 * The maker order for this quote cycle: the remaining size (a notional one
 * converted at the quote price) rounded down to the coarser lot, so a fill
 * never overshoots the target, provided it meets both venues' minimums.
 */
export const makerOrderSize = (input: MakerOrderSizeInput): MakerOrderSizing => {
  const remainingBase = remainingBaseSize(input.sizeType, input.remaining, input.makerPrice);
  const lot = coarserLotSize(input.market);
  const size = floorToStep(remainingBase, lot);
  // Meeting the minimums only gets easier as a size grows, so a whole number of
  // lots meets them exactly when it is at least minimumMakerOrderSize: the
  // direct check spares working that minimum out on every quote.
  if (compare(size, lot) >= 0 && makerSizeMeetsMinimums(size, input)) {
    return { kind: 'order', size };
  }
  const completing = completingOrderSize(remainingBase, input);
  return completing ? { kind: 'order', size: completing } : { kind: 'too_small', remainingBase };
};

/**
 * The order that completes a trade whose remainder is no whole number of the
 * coarser lot, or whose coarser-lot part is below a minimum (a partial fill on
 * the finer venue left it so): the remainder on the maker venue's own lot,
 * less what would leave the hedge short of a whole hedge lot when hedged with
 * the residue still waiting. A full fill of it is then hedged with that
 * residue, in whole lots, so no size is left unhedged for its sake. It must
 * meet the maker venue's minimums at P, and residue plus it the hedge
 * venue's at H (with the min_notional head-room). Null when none does.
 */
const completingOrderSize = (remainingBase: Big, input: MakerOrderSizeInput): Big | null => {
  const maker = makerRules(input.market, input.makerLeg);
  const hedge = hedgeRules(input.market, input.makerLeg);
  const residue = input.unhedgedResidue ?? new Big(0);
  let size = floorToStep(remainingBase, maker.lotSize);
  const hedged = residue.plus(size);
  size = size.minus(hedged.minus(floorToStep(hedged, hedge.lotSize)));
  if (signOf(size) <= 0 || !isMultipleOf(size, maker.lotSize)) {
    return null;
  }
  const hedgeSize = residue.plus(size);
  const hedgeOk =
    compare(hedgeSize, hedge.minSize) >= 0 &&
    (hedge.minNotional === undefined ||
      notionalAtLeast(hedgeSize, input.hedgeReference, hedge.minNotional, MIN_NOTIONAL_HEADROOM));
  return hedgeOk && meetsVenueMinimums(size, maker, input.makerPrice) ? size : null;
};
