import Big from 'big.js';
import { compare } from '../decimal/compare';
import { exactTimes, unitsOrNaN } from '../decimal/exact-units';
import { decimalsOf } from '../quoting/fixed-point-quote';

const ONE = new Big(1);

/** 10^0 to 10^22: every one of them a double exactly. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/** `units x 10^shift` (shift >= 0), or NaN unless it is exact. */
const shifted = (units: number, shift: number): number =>
  shift === 0 ? units : exactTimes(units, POWERS_OF_TEN[shift] ?? Number.NaN);

/**
 * `size x price >= minimum x factor` on integers: each side one product of
 * whole units at its own places, brought to the places of the finer side.
 * Null when a value does not fit a double exactly.
 */
export function notionalAtLeastInUnits(
  size: Big,
  price: Big,
  minimum: Big,
  factor: Big = ONE,
): boolean | null {
  const sizePlaces = decimalsOf(size);
  const pricePlaces = decimalsOf(price);
  const minimumPlaces = decimalsOf(minimum);
  const factorPlaces = factor === ONE ? 0 : decimalsOf(factor);
  const notionalPlaces = sizePlaces + pricePlaces;
  const floorPlaces = minimumPlaces + factorPlaces;
  const notional = exactTimes(unitsOrNaN(size, sizePlaces), unitsOrNaN(price, pricePlaces));
  const floor =
    factor === ONE
      ? unitsOrNaN(minimum, minimumPlaces)
      : exactTimes(unitsOrNaN(minimum, minimumPlaces), unitsOrNaN(factor, factorPlaces));
  const left = shifted(notional, Math.max(0, floorPlaces - notionalPlaces));
  const right = shifted(floor, Math.max(0, notionalPlaces - floorPlaces));
  return Number.isNaN(left) || Number.isNaN(right) ? null : left >= right;
}

/**
 * Whether an order of `size` at `price` is worth at least `minimum` (times
 * `factor`, a head-room), exactly: on integers, allocating nothing, and in
 * big.js where a value does not fit a double. Every quote cycle asks it of
 * both venues' min_notional, and every hedge of its venue's.
 */
export function notionalAtLeast(size: Big, price: Big, minimum: Big, factor: Big = ONE): boolean {
  return (
    notionalAtLeastInUnits(size, price, minimum, factor) ??
    compare(size.times(price), factor === ONE ? minimum : minimum.times(factor)) >= 0
  );
}
