import Big from 'big.js';
import { divideRounded } from '../decimal/decimal-math';
import { GUARD_BPS_PLACES } from '../quoting/quote-cushion';
import type { MakerLeg } from '../trade/trade-terms';
import { compare, signOf } from '../decimal/compare';
import { adverseMoveBpsInUnits, reachesThresholdInUnits } from './move-in-units';

export interface HedgeReferenceObservation {
  /** On the worker's own monotonic clock, the same one fills are timed with. */
  timeMs: number;
  price: Big;
}

export interface AdverseMove {
  /** How far H moved against the resting order, in price; zero or more. */
  against: Big;
  /** The reference the move is measured from: the window's extreme. */
  from: Big;
  to: Big;
}

/**
 * The largest move of H against the maker order within the window ending at
 * `current`. A long maker is hedged by a sell, so a falling H eats its spread:
 * the move runs from the window's highest H down to now. A short maker is
 * hedged by a buy, so the move runs from the lowest H up to now.
 */
export const adverseMove = (
  makerLeg: MakerLeg,
  observations: readonly HedgeReferenceObservation[],
  current: HedgeReferenceObservation,
  windowMs: number,
): AdverseMove =>
  moveBetween(makerLeg, adverseFrom(makerLeg, observations, current, windowMs), current.price);

/** Where `adverseMove` runs from: the window's H furthest against the order (none allocated). */
export const adverseFrom = (
  makerLeg: MakerLeg,
  observations: readonly HedgeReferenceObservation[],
  current: HedgeReferenceObservation,
  windowMs: number,
): Big => {
  const since = current.timeMs - windowMs;
  let from = current.price;
  for (const observation of observations) {
    if (observation.timeMs < since || observation.timeMs > current.timeMs) {
      continue;
    }
    const further =
      makerLeg === 'long'
        ? compare(observation.price, from) > 0
        : compare(observation.price, from) < 0;
    if (further) {
      from = observation.price;
    }
  }
  return from;
};

const moveBetween = (makerLeg: MakerLeg, from: Big, to: Big): AdverseMove => ({
  against: makerLeg === 'long' ? from.minus(to) : to.minus(from),
  from,
  to,
});

/**
 * `adverseMoveBps` of the move from `from` to `to`: on integers
 * (`adverseMoveBpsInUnits`), in big.js where a value does not fit. Every
 * move of H asks it of every guarded trade.
 */
export const adverseMoveBpsBetween = (makerLeg: MakerLeg, from: Big, to: Big): number => {
  const bps = adverseMoveBpsInUnits(makerLeg, from, to);
  return Number.isNaN(bps) ? adverseMoveBps(moveBetween(makerLeg, from, to)) : bps;
};

/** `reachesThreshold` of the move from `from` to `to`: on integers, in big.js where one does not fit. */
export const reachesThresholdBetween = (
  makerLeg: MakerLeg,
  from: Big,
  to: Big,
  thresholdBps: number,
): boolean =>
  reachesThresholdInUnits(makerLeg, from, to, thresholdBps) ??
  reachesThreshold(moveBetween(makerLeg, from, to), thresholdBps);

/** The move in bps of `from`, to 4 places (half even): the figure the guard reports. */
export const adverseMoveBps = (move: AdverseMove): number =>
  signOf(move.against) > 0 && signOf(move.from) > 0
    ? divideRounded(
        move.against.times(10000),
        move.from,
        GUARD_BPS_PLACES,
        Big.roundHalfEven,
      ).toNumber()
    : 0;

/**
 * Whether the move reached `thresholdBps` of `from`, decided exactly by
 * cross-multiplying, never on a rounded quotient.
 */
export const reachesThreshold = (move: AdverseMove, thresholdBps: number): boolean =>
  signOf(move.from) > 0 && compare(move.against.times(10000), move.from.times(thresholdBps)) >= 0;
