import Big from 'big.js';
import { floorToStep } from '../decimal/decimal-math';
import type { LegRules } from '../market/market-rules';
import { meetsVenueMinimums } from './venue-minimums';

/**
 * The base sizes behind a trade's hedging. Invariant, checked on every
 * change: hedged + inFlight <= makerFilled, so nothing is ever hedged twice.
 */
export interface HedgeAccumulator {
  /** Sum of maker fills. */
  readonly makerFilled: Big;
  /** Sum of confirmed hedge fills. */
  readonly hedged: Big;
  /** Sum of hedge orders sent and not yet resolved. */
  readonly inFlight: Big;
}

export class HedgeAccountingError extends Error {
  readonly code = 'hedge_accounting';

  constructor(message: string) {
    super(message);
    this.name = 'HedgeAccountingError';
  }
}

export const emptyHedgeAccumulator = (): HedgeAccumulator => ({
  makerFilled: new Big(0),
  hedged: new Big(0),
  inFlight: new Big(0),
});

/** Maker fills not yet hedged nor being hedged. */
export const unhedgedSize = (acc: HedgeAccumulator): Big =>
  acc.makerFilled.minus(acc.hedged).minus(acc.inFlight);

export const recordMakerFill = (acc: HedgeAccumulator, size: Big): HedgeAccumulator => {
  if (size.lte(0)) {
    throw new HedgeAccountingError(`maker fill size must be positive: ${size.toFixed()}`);
  }
  return { ...acc, makerFilled: acc.makerFilled.plus(size) };
};

/**
 * The hedge to send now: everything unhedged, rounded down to the hedge
 * venue's lot, if that meets the venue's minimums at H. Null while the
 * accumulated size is still below them: it waits for further maker fills.
 */
export const hedgeToSend = (
  acc: HedgeAccumulator,
  hedgeVenue: LegRules,
  hedgeReference: Big,
): Big | null => {
  const size = floorToStep(unhedgedSize(acc), hedgeVenue.lotSize);
  return size.gt(0) && meetsVenueMinimums(size, hedgeVenue, hedgeReference) ? size : null;
};

export const recordHedgeSent = (acc: HedgeAccumulator, size: Big): HedgeAccumulator => {
  if (size.lte(0)) {
    throw new HedgeAccountingError(`hedge size must be positive: ${size.toFixed()}`);
  }
  if (size.gt(unhedgedSize(acc))) {
    throw new HedgeAccountingError(
      `hedge of ${size.toFixed()} exceeds the unhedged ${unhedgedSize(acc).toFixed()}`,
    );
  }
  return { ...acc, inFlight: acc.inFlight.plus(size) };
};

/**
 * A hedge order resolved (filled, partly filled, rejected or expired). What
 * it did not fill returns to the unhedged size, to be retried from a fresh
 * reference. A remainder below the hedge venue's minimum cannot be sent on
 * its own: like a small maker fill it waits for further fills, and if none
 * come it ends as residual_unhedged (hedgeToSend returns null for it).
 */
export const recordHedgeResult = (
  acc: HedgeAccumulator,
  result: { requested: Big; filled: Big },
): HedgeAccumulator => {
  const { requested, filled } = result;
  if (requested.lte(0) || requested.gt(acc.inFlight)) {
    throw new HedgeAccountingError(
      `hedge result for ${requested.toFixed()} but ${acc.inFlight.toFixed()} in flight`,
    );
  }
  if (filled.lt(0) || filled.gt(requested)) {
    throw new HedgeAccountingError(
      `hedge filled ${filled.toFixed()} of a ${requested.toFixed()} order`,
    );
  }
  return { ...acc, inFlight: acc.inFlight.minus(requested), hedged: acc.hedged.plus(filled) };
};

/**
 * residual_unhedged in chunk_completed: maker fills that never reached the
 * hedge venue's minimum. Only meaningful once no hedge is in flight, since a
 * hedge is never abandoned.
 */
export const residualUnhedged = (acc: HedgeAccumulator): Big => {
  if (acc.inFlight.gt(0)) {
    throw new HedgeAccountingError(`${acc.inFlight.toFixed()} still in flight: not the end yet`);
  }
  return acc.makerFilled.minus(acc.hedged);
};
