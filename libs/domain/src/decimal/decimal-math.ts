import Big from 'big.js';
import { compare, signOf } from './compare';

/**
 * A private Big constructor for division, so no other code changing the
 * global `Big.DP` / `Big.RM` can change a price or size computed here.
 * Truncation (round down) is deliberate: every caller rounds the quotient
 * again in the direction it needs, and truncating first never overshoots.
 */
const Exact = Big();
Exact.DP = 40;
Exact.RM = Big.roundDown;

/** `dividend / divisor` truncated at 40 decimal places, returned as a plain Big. */
export const divide = (dividend: Big, divisor: Big): Big => {
  if (signOf(divisor) === 0) {
    throw new RangeError('division by zero');
  }
  return new Big(new Exact(dividend).div(divisor));
};

/** Big constructors dividing to a few places, by places and rounding mode (see divideRounded). */
const roundedDividers = new Map<number, Big.BigConstructor>();

/**
 * `dividend / divisor` rounded to `places` decimals with `mode`, exactly:
 * big.js decides the last digit from the true remainder, so this is the
 * correctly rounded quotient, and far cheaper than the forty digits of
 * `divide` when a figure needs only a few places (bps reported to 4).
 */
export const divideRounded = (
  dividend: Big,
  divisor: Big,
  places: number,
  mode: Big.RoundingMode,
): Big => {
  if (signOf(divisor) === 0) {
    throw new RangeError('division by zero');
  }
  const key = places * 4 + mode;
  let Divider = roundedDividers.get(key);
  if (!Divider) {
    Divider = Big();
    Divider.DP = places;
    Divider.RM = mode;
    roundedDividers.set(key, Divider);
  }
  return new Big(new Divider(dividend).div(divisor));
};

/**
 * Integer division rounded up, for counting whole steps: Big's division at
 * zero decimal places costs a few digits, not the forty of `divide`.
 */
const Ceiling = Big();
Ceiling.DP = 0;
Ceiling.RM = Big.roundUp;

/**
 * The smallest multiple of `step` whose product with `price` reaches
 * `amount` (all positive): `step x ceil(amount / (price x step))`. Exact:
 * rounding up at zero places is decided by the remainder, not by digits.
 */
export const stepsToReach = (amount: Big, price: Big, step: Big): Big => {
  assertPositiveStep(step);
  if (signOf(price) <= 0) {
    throw new RangeError('price must be positive');
  }
  return step.times(new Ceiling(amount).div(price.times(step)));
};

/**
 * Decimal places of a step that is 1, 0.1, 0.01, ... (every real venue's
 * tick and lot), else null. Such a step floors by truncation, no division.
 */
const powerOfTenPlaces = (step: Big): number | null =>
  step.c.length === 1 && step.c[0] === 1 && step.e <= 0 ? -step.e : null;

/** Largest multiple of `step` that is <= value. Exact: truncation, or Big's integer `mod`. */
export const floorToStep = (value: Big, step: Big): Big => {
  assertPositiveStep(step);
  const places = powerOfTenPlaces(step);
  if (places !== null) {
    // Already on the grid (a touch, a size in whole lots): the value itself, nothing allocated.
    return decimalPlaces(value) <= places
      ? value
      : value.round(places, value.s < 0 ? Big.roundUp : Big.roundDown);
  }
  const remainder = value.mod(step);
  if (signOf(remainder) === 0) {
    return value;
  }
  // mod keeps the dividend's sign, so a negative value is one step further down.
  return signOf(value) >= 0 ? value.minus(remainder) : value.minus(remainder).minus(step);
};

/** Smallest multiple of `step` that is >= value. */
export const ceilToStep = (value: Big, step: Big): Big => {
  assertPositiveStep(step);
  const floor = floorToStep(value, step);
  return compare(floor, value) === 0 ? value : floor.plus(step);
};

export const isMultipleOf = (value: Big, step: Big): boolean => {
  assertPositiveStep(step);
  return signOf(value.mod(step)) === 0;
};

export const maxOf = (first: Big, ...rest: Big[]): Big =>
  rest.reduce((max, value) => (compare(value, max) > 0 ? value : max), first);

export const minOf = (first: Big, ...rest: Big[]): Big =>
  rest.reduce((min, value) => (compare(value, min) < 0 ? value : min), first);

/**
 * Least common multiple of two positive decimals. For steps that are powers
 * of ten (every real venue) it is simply the larger one; for steps like 0.2
 * and 0.3 it is 0.6, the smallest size both venues accept.
 */
export const leastCommonMultiple = (a: Big, b: Big): Big => {
  assertPositiveStep(a);
  assertPositiveStep(b);
  // Every real venue's steps are powers of ten: one divides the other.
  const [larger, smaller] = compare(a, b) >= 0 ? [a, b] : [b, a];
  if (signOf(larger.mod(smaller)) === 0) {
    return larger;
  }
  const places = Math.max(decimalPlaces(a), decimalPlaces(b));
  // Scale to integers by shifting the exponent: exact, unlike a division.
  const x = a.times(`1e${places}`);
  const y = b.times(`1e${places}`);
  return divide(x.times(y), greatestCommonDivisor(x, y)).times(`1e-${places}`);
};

const greatestCommonDivisor = (a: Big, b: Big): Big => {
  let x = a;
  let y = b;
  while (signOf(y) !== 0) {
    const r = x.mod(y);
    x = y;
    y = r;
  }
  return x;
};

const decimalPlaces = (value: Big): number => Math.max(0, value.c.length - value.e - 1);

const assertPositiveStep = (step: Big): void => {
  if (signOf(step) <= 0) {
    throw new RangeError(`step must be positive, got ${step.toFixed()}`);
  }
};
