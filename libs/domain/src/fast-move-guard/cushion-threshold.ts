import type Big from 'big.js';
import { exactMinus, exactTimes, roundedQuotient, unitsOrNaN } from '../decimal/exact-units';
import { decimalsOf } from '../quoting/fixed-point-quote';
import { GUARD_BPS_PLACES, quoteCushionBps } from '../quoting/quote-cushion';
import { defaultFastMoveThresholdBps, thresholdOfCushion } from './fast-move-settings';

const BPS_UNIT = 10 ** GUARD_BPS_PLACES;

/**
 * The guard's default threshold for an order resting at `makerPrice` while H
 * is `hedgeReference`: `defaultFastMoveThresholdBps` of its quote cushion
 * (`quoteCushionBps`). Every move of H asks it of every guarded order, so it
 * is worked on integers and in big.js only where a value does not fit a double.
 */
export function cushionThresholdBps(makerPrice: Big, hedgeReference: Big): number {
  const threshold = cushionThresholdBpsInUnits(makerPrice, hedgeReference);
  return Number.isNaN(threshold)
    ? defaultFastMoveThresholdBps(quoteCushionBps(makerPrice, hedgeReference))
    : threshold;
}

/**
 * `cushionThresholdBps` on integers: the cushion as whole units of its
 * places, rounded half up from the remainder, then the number big.js gives
 * for it (both are the double nearest `units / 10^places`). NaN when a value
 * does not fit, or H is not above zero.
 */
export function cushionThresholdBpsInUnits(makerPrice: Big, hedgeReference: Big): number {
  const scale = Math.max(decimalsOf(makerPrice), decimalsOf(hedgeReference));
  const h = unitsOrNaN(hedgeReference, scale);
  const distance = Math.abs(exactMinus(unitsOrNaN(makerPrice, scale), h));
  const cushion = roundedQuotient(exactTimes(distance, 10_000 * BPS_UNIT), h, 'half_up');
  return Number.isNaN(cushion) ? Number.NaN : thresholdOfCushion(cushion / BPS_UNIT);
}
