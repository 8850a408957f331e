import Big from 'big.js';

/**
 * Funding per hour, as every simulated venue publishes it: a base interest
 * plus a share of the venue's basis (its premium over the index), in bps.
 * Venues that quote funding per interval multiply by its hours.
 */
export function hourlyFundingRate(basisBps: number): Big {
  return new Big(0.0000125).plus(new Big(basisBps.toFixed(4)).div(10_000).times(0.02));
}

/** Decimal places of a step (`0.001` → 3): what venues that scale by powers of ten publish. */
export function decimalsOf(step: string): number {
  const text = new Big(step).toFixed();
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
