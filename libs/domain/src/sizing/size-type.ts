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

/**
 * The last remainder worked out for a filled size, with its target: a trade
 * asks every quote cycle, with the same two values until a fill or an
 * amendment (Big values are never changed in place, so the answer stands).
 */
const remainders = new WeakMap<Big, { targetSize: Big; remaining: Big }>();

/** target - filled, never below zero (a fill may overshoot by less than a lot). */
export const remainingSize = (targetSize: Big, filledSize: Big): Big => {
  const known = remainders.get(filledSize);
  if (known?.targetSize === targetSize) {
    return known.remaining;
  }
  const difference = targetSize.minus(filledSize);
  const remaining = signOf(difference) > 0 ? difference : new Big(0);
  remainders.set(filledSize, { targetSize, remaining });
  return remaining;
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
