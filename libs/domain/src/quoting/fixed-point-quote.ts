import Big from 'big.js';
import { signOf } from '../decimal/compare';
import { coarserTickSize, isCrossedOrLocked } from '../market/market-rules';
import { makerRules } from '../spread/legs';
import type { QuoteInput } from './quote-input';

/** The inputs cannot be held as safe integers at one scale: the caller uses the decimal path. */
export const UNREPRESENTABLE: unique symbol = Symbol('unrepresentable');

/**
 * Largest magnitude an input may have in units: sums of a few such values stay
 * exact in a double (below 2^53).
 */
const LIMIT = 2 ** 50;

/** Places after the point in `value` (big.js's digits `c` and exponent `e`, read in place). */
export function decimalsOf(value: Big): number {
  return Math.max(0, value.c.length - 1 - value.e);
}

/**
 * `value x 10^scale` as an integer, exactly, or null when `value` has more
 * places than `scale` or the integer is past LIMIT. Allocates nothing.
 */
export function unitsOf(value: Big, scale: number): number | null {
  const digits = value.c;
  const zeros = scale - (digits.length - 1 - value.e);
  if (zeros < 0) {
    return null;
  }
  let units = 0;
  for (let i = 0; i < digits.length; i++) {
    units = units * 10 + digits[i];
    if (units > LIMIT) {
      return null;
    }
  }
  return shifted(value.s < 0 ? -units : units, zeros);
}

/** `units x 10^shift`, exactly, or null past LIMIT (`shift` >= 0). */
function shifted(units: number, shift: number): number | null {
  let value = units;
  if (Math.abs(value) > LIMIT) {
    return null;
  }
  for (let left = shift; left > 0 && value !== 0; left--) {
    value *= 10;
    if (Math.abs(value) > LIMIT) {
      return null;
    }
  }
  return value;
}

/** The Big of `units x 10^-scale` (big.js reads the exponent form exactly). */
export function decimalOfUnits(units: number, scale: number): Big {
  return new Big(`${units}e-${scale}`);
}

/** A value held exactly as `units x 10^-places`. */
interface Exact {
  units: number;
  places: number;
}

/** `value` as whole units of its own places, or null past LIMIT. */
function exactOf(value: Big): Exact | null {
  const places = decimalsOf(value);
  const units = unitsOf(value, places);
  return units === null ? null : { units, places };
}

/** `exact x factor x 10^-extraPlaces`, exactly, or null past LIMIT. */
function times(exact: Exact, factor: Big, extraPlaces: number): Exact | null {
  const by = exactOf(factor);
  if (by === null) {
    return null;
  }
  const units = shifted(exact.units * by.units, 0);
  return units === null ? null : { units, places: exact.places + by.places + extraPlaces };
}

/** The target in USD, exactly (spread.ts toAbsoluteSpread), or null past LIMIT. */
function exactTarget(input: QuoteInput, coarser: Big): Exact | null {
  const target = exactOf(input.terms.targetSpread);
  if (target === null) {
    return null;
  }
  switch (input.terms.spreadType) {
    case 'absolute':
      return target;
    case 'ticks':
      return times(target, coarser, 0);
    case 'bps':
      return times(target, input.hedgeReference, 4);
    case 'percentage':
      return times(target, input.hedgeReference, 2);
  }
}

/** `value` floored (`up` false) or ceiled onto multiples of `step`, integers both. */
function toGrid(value: number, step: number, up: boolean): number {
  const below = value - (((value % step) + step) % step);
  return up && below !== value ? below + step : below;
}

/** One side of the interval of valid prices, in units. */
interface Side {
  value: number;
  inclusive: boolean;
}

/** The tighter of two lower (`lower` true) or upper bounds; on a tie an exclusive one wins. */
function tighter(a: Side | null, value: number, inclusive: boolean, lower: boolean): Side {
  if (a === null || (lower ? value > a.value : value < a.value)) {
    return { value, inclusive };
  }
  if (value === a.value && !inclusive) {
    return { value, inclusive: false };
  }
  return a;
}

/**
 * The default quote (default-quote.ts) on integers: every price, H, the
 * target and the tolerance as a whole number of units of one scale, the
 * scale being the most places any input needs, so each sum and bound is
 * exact and the answer is the decimal path's, price for price (a property
 * test compares them on random books). It allocates the answer's Big and
 * little else; the decimal path allocates a Big per sum, bound and rounding.
 * UNREPRESENTABLE when an input needs more than a double holds exactly.
 */
export function defaultQuoteInUnits(input: QuoteInput): Big | null | typeof UNREPRESENTABLE {
  const { makerTouch, hedgeReference, makerLeg } = input;
  if (isCrossedOrLocked(makerTouch) || signOf(hedgeReference) <= 0) {
    return null;
  }
  const tickSize = makerRules(input.market, makerLeg).tickSize;
  const coarser = coarserTickSize(input.market);
  const exact = exactTarget(input, coarser);
  if (exact === null) {
    return UNREPRESENTABLE;
  }
  const eq = input.terms.condition === 'eq';
  const scale = Math.max(
    decimalsOf(makerTouch.bestBid),
    decimalsOf(makerTouch.bestAsk),
    decimalsOf(hedgeReference),
    decimalsOf(tickSize),
    exact.places,
    eq ? decimalsOf(coarser) + 1 : 0,
  );
  const bid = unitsOf(makerTouch.bestBid, scale);
  const ask = unitsOf(makerTouch.bestAsk, scale);
  const h = unitsOf(hedgeReference, scale);
  const tick = unitsOf(tickSize, scale);
  const target = shifted(exact.units, scale - exact.places);
  // The scale holds a place more than the coarser tick: half of it is a whole number of units.
  const coarserUnits = eq ? unitsOf(coarser, scale) : 0;
  if (
    bid === null ||
    ask === null ||
    h === null ||
    tick === null ||
    target === null ||
    coarserUnits === null ||
    tick <= 0
  ) {
    return UNREPRESENTABLE;
  }
  const units = quoteUnits(input, { bid, ask, h, tick, target, tolerance: coarserUnits / 2 });
  if (units === null) {
    return null;
  }
  // Joining the touch (the common answer): the touch's own Big, which is never changed in place.
  if (units === (makerLeg === 'long' ? bid : ask)) {
    return makerLeg === 'long' ? makerTouch.bestBid : makerTouch.bestAsk;
  }
  return decimalOfUnits(units, scale);
}

interface Units {
  bid: number;
  ask: number;
  h: number;
  tick: number;
  target: number;
  /** Half the coarser tick (only `eq` reads it). */
  tolerance: number;
}

/** The default quote's price in units, or null when no price is valid. */
function quoteUnits(input: QuoteInput, u: Units): number | null {
  const long = input.makerLeg === 'long';
  // Post-only and positive: a buy below the best ask, a sell above the best bid.
  let lower: Side = { value: 0, inclusive: false };
  let upper: Side | null = long ? { value: u.ask, inclusive: false } : null;
  if (!long) {
    lower = tighter(lower, u.bid, false, true);
  }
  // The condition on the spread (H - P for a long maker, P - H for a short one) as a price bound.
  const at = long ? u.h - u.target : u.h + u.target;
  const { condition } = input.terms;
  if (condition === 'eq') {
    lower = tighter(lower, at - u.tolerance, true, true);
    upper = tighter(upper, at + u.tolerance, true, false);
  } else {
    const inclusive = condition === 'gte' || condition === 'lte';
    // A spread held up bounds a short maker's price from below and a long maker's from above.
    const spreadAtLeast = condition === 'gte' || condition === 'gt';
    if (spreadAtLeast !== long) {
      lower = tighter(lower, at, inclusive, true);
    } else {
      upper = tighter(upper, at, inclusive, false);
    }
  }
  return nearestOnGrid(long ? u.bid : u.ask, long, lower, upper, u.tick);
}

/** The grid price nearest the touch within the bounds (default-quote.ts), or null. */
function nearestOnGrid(
  touch: number,
  long: boolean,
  lower: Side,
  upper: Side | null,
  tick: number,
): number | null {
  const floorLower = toGrid(lower.value, tick, false);
  const lowest = lower.inclusive && floorLower === lower.value ? floorLower : floorLower + tick;
  let highest: number | null = null;
  if (upper !== null) {
    const ceilUpper = toGrid(upper.value, tick, true);
    highest = upper.inclusive && ceilUpper === upper.value ? ceilUpper : ceilUpper - tick;
    if (lowest > highest) {
      return null;
    }
  }
  // A touch off the grid is snapped away from the other side of the book.
  const onGrid = toGrid(touch, tick, !long);
  if (onGrid < lowest) {
    return lowest;
  }
  return highest !== null && onGrid > highest ? highest : onGrid;
}
