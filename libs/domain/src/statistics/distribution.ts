import Big from 'big.js';
import { divideRounded } from '../decimal/decimal-math';
import { compare } from '../decimal/compare';

/** Decimal places a distribution's mean keeps (its percentiles are observed values, exact). */
export const DISTRIBUTION_MEAN_DP = 6;

/**
 * A sample's count, mean and 5th, 50th and 95th percentiles; the figures are
 * null for an empty sample.
 */
export interface Distribution {
  count: number;
  mean: Big | null;
  p5: Big | null;
  p50: Big | null;
  p95: Big | null;
}

/**
 * The `p`th percentile (0 < p <= 100) of a sample by the nearest-rank method:
 * the smallest observed value with at least p% of the sample at or below it,
 * i.e. the value of rank ceil(p / 100 x n) in ascending order. Always a value
 * of the sample, never an interpolation; null for an empty sample.
 */
export function nearestRankPercentile(values: readonly Big[], p: number): Big | null {
  if (!(p > 0 && p <= 100)) {
    throw new RangeError(`percentile ${p} is not in (0, 100]`);
  }
  if (values.length === 0) {
    return null;
  }
  const sorted = [...values].sort(compare);
  // In decimals (a division by 100 is exact): p = 5, n = 20 is rank 1, never 1.0000000001.
  const rank = Math.max(
    1,
    new Big(p).times(sorted.length).div(100).round(0, Big.roundUp).toNumber(),
  );
  return sorted[rank - 1];
}

/** The sample's count, mean (half-even to DISTRIBUTION_MEAN_DP) and nearest-rank p5, p50, p95. */
export function distributionOf(values: readonly Big[]): Distribution {
  if (values.length === 0) {
    return { count: 0, mean: null, p5: null, p50: null, p95: null };
  }
  const sum = values.reduce((total, value) => total.plus(value), new Big(0));
  return {
    count: values.length,
    mean: divideRounded(sum, new Big(values.length), DISTRIBUTION_MEAN_DP, Big.roundHalfEven),
    p5: nearestRankPercentile(values, 5),
    p50: nearestRankPercentile(values, 50),
    p95: nearestRankPercentile(values, 95),
  };
}
