import Big from 'big.js';
import { ceilToStep, floorToStep, maxOf, stepsToReach } from '../decimal/decimal-math';
import { type TradeMarket, coarserLotSize } from '../market/market-rules';
import { hedgeRules, makerRules } from '../spread/legs';
import type { MakerLeg, SizeType } from '../trade/trade-terms';
import { remainingBaseSize } from './size-type';
import { meetsVenueMinimums } from './venue-minimums';
import { compare } from '../decimal/compare';

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
      compare(size.times(input.hedgeReference), hedge.minNotional.times(MIN_NOTIONAL_HEADROOM)) >=
        0)
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
  if (maker.minNotional) floors.push(stepsToReach(maker.minNotional, input.makerPrice, lot));
  if (hedge.minNotional) {
    floors.push(
      stepsToReach(hedge.minNotional.times(MIN_NOTIONAL_HEADROOM), input.hedgeReference, lot),
    );
  }
  let size = maxOf(lot, ...floors);
  // Each floor is exact; the check only guards the rule above against a change of either.
  while (!makerSizeMeetsMinimums(size, input)) size = size.plus(lot);
  return size;
};

export interface MakerOrderSizeInput extends MakerSizingInput {
  sizeType: SizeType;
  /** target_size - filled_size, in the trade's size_type. */
  remaining: Big;
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
  return compare(size, lot) >= 0 && makerSizeMeetsMinimums(size, input)
    ? { kind: 'order', size }
    : { kind: 'too_small', remainingBase };
};
