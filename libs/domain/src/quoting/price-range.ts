import type Big from 'big.js';
import { ceilToStep, floorToStep } from '../decimal/decimal-math';
import { compare } from '../decimal/compare';

export interface Bound {
  value: Big;
  inclusive: boolean;
}

/** An interval of prices or spreads; a null bound is unbounded on that side. */
export interface Range {
  lower: Bound | null;
  upper: Bound | null;
}

export const UNBOUNDED: Range = { lower: null, upper: null };

export const atLeast = (value: Big, inclusive = true): Range => ({
  lower: { value, inclusive },
  upper: null,
});

export const atMost = (value: Big, inclusive = true): Range => ({
  lower: null,
  upper: { value, inclusive },
});

export const between = (lower: Big, upper: Big): Range => ({
  lower: { value: lower, inclusive: true },
  upper: { value: upper, inclusive: true },
});

const tighterLower = (a: Bound | null, b: Bound | null): Bound | null => {
  if (a === null) {
    return b;
  }
  if (b === null) {
    return a;
  }
  const order = compare(a.value, b.value);
  if (order === 0) {
    return { value: a.value, inclusive: a.inclusive && b.inclusive };
  }
  return order > 0 ? a : b;
};

const tighterUpper = (a: Bound | null, b: Bound | null): Bound | null => {
  if (a === null) {
    return b;
  }
  if (b === null) {
    return a;
  }
  const order = compare(a.value, b.value);
  if (order === 0) {
    return { value: a.value, inclusive: a.inclusive && b.inclusive };
  }
  return order < 0 ? a : b;
};

export const intersect = (...ranges: Range[]): Range =>
  ranges.reduce(
    (acc, range) => ({
      lower: tighterLower(acc.lower, range.lower),
      upper: tighterUpper(acc.upper, range.upper),
    }),
    UNBOUNDED,
  );

/** `offset + x` for every x in the range. */
export const shifted = (range: Range, offset: Big): Range => ({
  lower: range.lower && { ...range.lower, value: offset.plus(range.lower.value) },
  upper: range.upper && { ...range.upper, value: offset.plus(range.upper.value) },
});

/** `offset - x` for every x in the range: the bounds swap sides. */
export const mirrored = (range: Range, offset: Big): Range => ({
  lower: range.upper && { ...range.upper, value: offset.minus(range.upper.value) },
  upper: range.lower && { ...range.lower, value: offset.minus(range.lower.value) },
});

export const contains = (range: Range, value: Big): boolean =>
  (range.lower === null ||
    (range.lower.inclusive
      ? compare(value, range.lower.value) >= 0
      : compare(value, range.lower.value) > 0)) &&
  (range.upper === null ||
    (range.upper.inclusive
      ? compare(value, range.upper.value) <= 0
      : compare(value, range.upper.value) < 0));

export interface GridEnds {
  lowest: Big;
  /** Null when the range has no upper bound. */
  highest: Big | null;
}

/**
 * The lowest and highest multiples of `step` inside a range with a lower
 * bound, or null when none is inside. Rounding is always inward, so both ends
 * are members of the range.
 */
export const gridEnds = (range: Range & { lower: Bound }, step: Big): GridEnds | null => {
  const floorLower = floorToStep(range.lower.value, step);
  const lowest =
    range.lower.inclusive && compare(floorLower, range.lower.value) === 0
      ? floorLower
      : floorLower.plus(step);
  if (range.upper === null) {
    return { lowest, highest: null };
  }
  const ceilUpper = ceilToStep(range.upper.value, step);
  const highest =
    range.upper.inclusive && compare(ceilUpper, range.upper.value) === 0
      ? ceilUpper
      : ceilUpper.minus(step);
  return compare(lowest, highest) <= 0 ? { lowest, highest } : null;
};

export type LowerBoundedRange = Range & { lower: Bound };

/** Intersection that keeps the type's guarantee of a lower bound. */
export const narrowed = (range: LowerBoundedRange, ...others: Range[]): LowerBoundedRange => {
  const result = intersect(range, ...others);
  return { upper: result.upper, lower: result.lower ?? range.lower };
};
