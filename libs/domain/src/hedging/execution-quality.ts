import Big from 'big.js';
import { divide } from '../decimal/decimal-math';
import { type SpreadBasis, absoluteSpread, toSpreadUnits } from '../spread/spread';
import type { MakerLeg, Side, SpreadType } from '../trade/trade-terms';

/** Decimal places kept for ratios in bps (slippage). */
export const BPS_DP = 6;
/** Decimal places kept for an average of fill prices. */
export const AVERAGE_PRICE_DP = 12;

/**
 * Slippage of a hedge fill against its reference, in bps of H. Positive when
 * the fill was worse than H (paid more on a buy, got less on a sell).
 */
export const slippageBps = (side: Side, hedgeReference: Big, fillPrice: Big): Big => {
  const worse = side === 'buy' ? fillPrice.minus(hedgeReference) : hedgeReference.minus(fillPrice);
  return divide(worse.times(10000), hedgeReference).round(BPS_DP, Big.roundHalfEven);
};

/**
 * A maker fill's markout: the maker venue's mid some time after the fill
 * against the fill's price, in bps of the price, positive when good for the
 * trader (after a maker buy the mid rose; after a sell it fell).
 */
export const markoutBps = (makerSide: Side, fillPrice: Big, laterMid: Big): Big => {
  const better = makerSide === 'buy' ? laterMid.minus(fillPrice) : fillPrice.minus(laterMid);
  return divide(better.times(10000), fillPrice).round(BPS_DP, Big.roundHalfEven);
};

export interface PricedFill {
  price: Big;
  size: Big;
}

/** Size-weighted average price of fills (avg_price); null when nothing filled. */
export const averageFillPrice = (fills: readonly PricedFill[]): Big | null => {
  const size = fills.reduce((sum, fill) => sum.plus(fill.size), new Big(0));
  if (size.eq(0)) {
    return null;
  }
  const value = fills.reduce((sum, fill) => sum.plus(fill.price.times(fill.size)), new Big(0));
  return divide(value, size).round(AVERAGE_PRICE_DP, Big.roundHalfEven);
};

/**
 * Fills in order, cut at `size`: the first `size` of them (a fill that
 * straddles the cut is split) and what is beyond it.
 */
export const splitFillsAt = (
  fills: readonly PricedFill[],
  size: Big,
): { within: PricedFill[]; beyond: PricedFill[] } => {
  const within: PricedFill[] = [];
  const beyond: PricedFill[] = [];
  let left = size;
  for (const fill of fills) {
    if (left.lte(0)) {
      beyond.push(fill);
    } else if (fill.size.lte(left)) {
      within.push(fill);
      left = left.minus(fill.size);
    } else {
      within.push({ price: fill.price, size: left });
      beyond.push({ price: fill.price, size: fill.size.minus(left) });
      left = new Big(0);
    }
  }
  return { within, beyond };
};

export interface SpreadAchievedInput {
  makerLeg: MakerLeg;
  /** The maker fill price (or the average of the maker fills this hedge covers). */
  makerPrice: Big;
  /** The hedge's average fill price. */
  hedgePrice: Big;
  spreadType: SpreadType;
  coarserTickSize: Big;
}

/**
 * spread_achieved of a (maker fill, hedge fill) pair, in the trade's
 * spread_type. The percentage and bps forms are of the price the hedge
 * actually got, which is what H stood in for when the spread was projected.
 */
export const spreadAchieved = (input: SpreadAchievedInput): Big => {
  const basis: SpreadBasis = {
    hedgeReference: input.hedgePrice,
    coarserTickSize: input.coarserTickSize,
  };
  const absolute = absoluteSpread(input.makerLeg, input.makerPrice, input.hedgePrice);
  return toSpreadUnits(absolute, input.spreadType, basis);
};
