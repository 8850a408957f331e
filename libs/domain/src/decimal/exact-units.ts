import type Big from 'big.js';
import { unitsOf } from '../quoting/fixed-point-quote';

/**
 * Whole-number arithmetic on the hot path's fixed-point values (prices and
 * sizes as whole units of `10^-scale`), exact or NaN: a result that a double
 * cannot hold exactly is NaN, and so is everything computed from it, so a
 * caller checks once (`Number.isSafeInteger`) before it decides anything and
 * takes the big.js path when the check fails. Nothing here allocates.
 *
 * A product or sum of two safe integers is exact when the true result is a
 * safe integer (it is then a double, and IEEE 754 rounds to it); when it is
 * not, the rounded result is at least 2^53 in magnitude, so the check below
 * catches every inexact result.
 */

/** `value x 10^scale` as an integer (unitsOf), or NaN where unitsOf gives null. */
export const unitsOrNaN = (value: Big, scale: number): number =>
  unitsOf(value, scale) ?? Number.NaN;

const exact = (value: number): number => (Number.isSafeInteger(value) ? value : Number.NaN);

/** `a x b`, or NaN unless it is exact. */
export const exactTimes = (a: number, b: number): number => exact(a * b);

/** `a + b`, or NaN unless it is exact. */
export const exactPlus = (a: number, b: number): number => exact(a + b);

/** `a - b`, or NaN unless it is exact. */
export const exactMinus = (a: number, b: number): number => exact(a - b);

/** How a quotient's last unit is rounded: as big.js's roundHalfUp and roundHalfEven. */
export type QuotientRounding = 'half_up' | 'half_even';

/**
 * `dividend / divisor` rounded to a whole number, exactly (both safe
 * integers, the divisor positive): the double quotient only guesses the
 * whole part, the remainder decides it and the rounding.
 */
export const roundedQuotient = (
  dividend: number,
  divisor: number,
  rounding: QuotientRounding,
): number => {
  if (!Number.isSafeInteger(dividend) || !Number.isSafeInteger(divisor) || divisor <= 0) {
    return Number.NaN;
  }
  let whole = Math.floor(dividend / divisor);
  let remainder = dividend - exactTimes(whole, divisor);
  if (Number.isNaN(remainder)) {
    return Number.NaN;
  }
  // The double quotient is off by at most one either way.
  while (remainder < 0) {
    whole -= 1;
    remainder += divisor;
  }
  while (remainder >= divisor) {
    whole += 1;
    remainder -= divisor;
  }
  const twice = 2 * remainder;
  const up =
    twice > divisor ||
    (twice === divisor && (rounding === 'half_up' ? whole >= 0 : Math.abs(whole) % 2 === 1));
  return up ? whole + 1 : whole;
};

/** The largest multiple of `step` (> 0) at or below `value`, integers both. */
export const floorToMultiple = (value: number, step: number): number =>
  value - (((value % step) + step) % step);

/** The smallest multiple of `step` (> 0) at or above `value`, integers both. */
export const ceilToMultiple = (value: number, step: number): number => {
  const floor = floorToMultiple(value, step);
  return floor === value ? value : floor + step;
};
