import type Big from 'big.js';
import { exactMinus, exactTimes, roundedQuotient, unitsOrNaN } from '../decimal/exact-units';
import { decimalsOf } from '../quoting/fixed-point-quote';
import { GUARD_BPS_PLACES } from '../quoting/quote-cushion';
import type { MakerLeg } from '../trade/trade-terms';

/** `10^GUARD_BPS_PLACES`: a bps figure to its places is a whole number of these. */
const BPS_UNIT = 10 ** GUARD_BPS_PLACES;
/** A ratio in bps to its places: `10000 x BPS_UNIT` per whole. */
const PER_WHOLE = 10_000 * BPS_UNIT;

/**
 * A number as big.js reads it (its shortest decimal text), as whole units of
 * `10^-places` with at most GUARD_BPS_PLACES places, or null when it needs
 * more. Two decimals of at most 15 significant digits are never the same
 * double, so a `units / 10^places` that gives back `value` is that text.
 */
function numberInUnits(value: number, out: { units: number; places: number }): boolean {
  for (let places = 0, scale = 1; places <= GUARD_BPS_PLACES; places += 1, scale *= 10) {
    const units = Math.round(value * scale);
    if (Math.abs(units) < 1e15 && units / scale === value) {
      out.units = units;
      out.places = places;
      return true;
    }
  }
  return false;
}

const threshold = { units: 0, places: 0 };

/** How far H went against the order from `from` to `to`, both as units of one scale (NaN: no fit). */
function againstAndFrom(
  makerLeg: MakerLeg,
  from: Big,
  to: Big,
  out: { against: number; from: number },
): void {
  const scale = Math.max(decimalsOf(from), decimalsOf(to));
  const start = unitsOrNaN(from, scale);
  const end = unitsOrNaN(to, scale);
  out.against = makerLeg === 'long' ? exactMinus(start, end) : exactMinus(end, start);
  out.from = start;
}

const move = { against: 0, from: 0 };

/**
 * `adverseMoveBps` of the move from `from` to `to` on integers: the bps to
 * GUARD_BPS_PLACES, half even, as the number big.js gives (both are the
 * double nearest `units / 10^places`). NaN when a value does not fit.
 */
export function adverseMoveBpsInUnits(makerLeg: MakerLeg, from: Big, to: Big): number {
  againstAndFrom(makerLeg, from, to, move);
  if (Number.isNaN(move.against) || Number.isNaN(move.from)) {
    return Number.NaN;
  }
  if (move.against <= 0 || move.from <= 0) {
    return 0;
  }
  return roundedQuotient(exactTimes(move.against, PER_WHOLE), move.from, 'half_even') / BPS_UNIT;
}

/**
 * `reachesThreshold` of the move from `from` to `to` on integers, by the same
 * cross-multiplication; null when a value does not fit, or the threshold has
 * more than GUARD_BPS_PLACES places.
 */
export function reachesThresholdInUnits(
  makerLeg: MakerLeg,
  from: Big,
  to: Big,
  thresholdBps: number,
): boolean | null {
  againstAndFrom(makerLeg, from, to, move);
  if (!numberInUnits(thresholdBps, threshold)) {
    return null;
  }
  const moved = exactTimes(move.against, 10_000 * 10 ** threshold.places);
  const needed = exactTimes(move.from, threshold.units);
  if (Number.isNaN(moved) || Number.isNaN(needed)) {
    return null;
  }
  return move.from > 0 && moved >= needed;
}
