import Big from 'big.js';
import { ceilToStep, floorToStep } from '../decimal/decimal-math';
import type { Side } from '../trade/trade-terms';
import { signOf } from '../decimal/compare';

export interface HedgePriceInput {
  side: Side;
  /** H, the hedge venue's touch the hedge takes. */
  hedgeReference: Big;
  /** A fraction of price: 0.001 = 0.1 %. */
  maxSlippage: Big;
  /** The hedge venue's tick. */
  tickSize: Big;
}

/**
 * The IOC limit of a hedge: H * (1 + max_slippage) for a buy, H * (1 -
 * max_slippage) for a sell, rounded to the tick in the protective direction:
 * a buy rounds down and a sell rounds up, toward H, so rounding never lets a
 * fill be worse than the slippage bound. With H on the tick grid the limit is
 * never less aggressive than H itself, so the hedge can always take the touch.
 * A sell bound at or below zero (max_slippage >= 1) becomes one tick: the
 * lowest price a venue accepts.
 */
export const hedgeLimitPrice = (input: HedgePriceInput): Big => {
  const { side, hedgeReference, maxSlippage, tickSize } = input;
  switch (side) {
    case 'buy':
      return floorToStep(hedgeReference.times(new Big(1).plus(maxSlippage)), tickSize);
    case 'sell': {
      const limit = ceilToStep(hedgeReference.times(new Big(1).minus(maxSlippage)), tickSize);
      return signOf(limit) > 0 ? limit : tickSize;
    }
  }
};
