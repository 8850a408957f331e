import Big from 'big.js';
import { divide } from '../decimal/decimal-math';
import type { SizeType } from '../trade/trade-terms';
import { signOf } from '../decimal/compare';

/**
 * What one fill adds to filled_size, in the trade's size_type: base units, or
 * USD (price x size) for a notional trade.
 */
export const fillAmount = (sizeType: SizeType, price: Big, size: Big): Big => {
  switch (sizeType) {
    case 'base':
      return size;
    case 'notional':
      return price.times(size);
  }
};

/** target - filled, never below zero (a fill may overshoot by less than a lot). */
export const remainingSize = (targetSize: Big, filledSize: Big): Big => {
  const remaining = targetSize.minus(filledSize);
  return signOf(remaining) > 0 ? remaining : new Big(0);
};

/**
 * The base size a remaining amount stands for at `price`. A notional
 * remainder converts at the quote price; the result is not on any lot yet
 * (truncated, so it never exceeds the notional).
 */
export const remainingBaseSize = (sizeType: SizeType, remaining: Big, price: Big): Big => {
  switch (sizeType) {
    case 'base':
      return remaining;
    case 'notional':
      return divide(remaining, price);
  }
};
