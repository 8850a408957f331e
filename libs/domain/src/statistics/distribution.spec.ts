import Big from 'big.js';
import { distributionOf, nearestRankPercentile } from './distribution';

const sample = (...values: string[]) => values.map((value) => new Big(value));
const text = (value: Big | null) => (value === null ? null : value.toFixed());

describe('nearest-rank percentiles', () => {
  // 1..20: rank ceil(p/100 x 20).
  const oneToTwenty = sample(...Array.from({ length: 20 }, (_, index) => String(20 - index)));

  it('takes the value of rank ceil(p/100 x n) in ascending order', () => {
    expect(text(nearestRankPercentile(oneToTwenty, 5))).toBe('1');
    expect(text(nearestRankPercentile(oneToTwenty, 50))).toBe('10');
    expect(text(nearestRankPercentile(oneToTwenty, 95))).toBe('19');
    expect(text(nearestRankPercentile(oneToTwenty, 96))).toBe('20');
    expect(text(nearestRankPercentile(oneToTwenty, 100))).toBe('20');
  });

  it('answers an observed value, never an interpolation', () => {
    const four = sample('-3.5', '2', '0.25', '10');
    expect(text(nearestRankPercentile(four, 5))).toBe('-3.5');
    expect(text(nearestRankPercentile(four, 50))).toBe('0.25');
    expect(text(nearestRankPercentile(four, 51))).toBe('2');
    expect(text(nearestRankPercentile(four, 95))).toBe('10');
  });

  it('is the one value of a sample of one, and null for an empty sample', () => {
    expect(text(nearestRankPercentile(sample('-1.2'), 5))).toBe('-1.2');
    expect(text(nearestRankPercentile(sample('-1.2'), 95))).toBe('-1.2');
    expect(nearestRankPercentile([], 50)).toBeNull();
  });

  it('refuses a percentile outside (0, 100]', () => {
    expect(() => nearestRankPercentile(oneToTwenty, 0)).toThrow(RangeError);
    expect(() => nearestRankPercentile(oneToTwenty, 100.5)).toThrow(RangeError);
  });
});

describe('a distribution', () => {
  it('has the count, the mean (half-even, 6 places) and p5, p50, p95', () => {
    const summary = distributionOf(sample('1', '2', '2', '-4', '0.0000005'));
    expect(summary.count).toBe(5);
    // 1.0000005 / 5 = 0.2000001
    expect(text(summary.mean)).toBe('0.2');
    expect([summary.p5, summary.p50, summary.p95].map(text)).toEqual(['-4', '1', '2']);
    expect(text(distributionOf(sample('1', '2')).mean)).toBe('1.5');
    expect(text(distributionOf(sample('0.0000025', '0')).mean)).toBe('0.000001');
  });

  it('is a count of 0 and nulls for no values', () => {
    expect(distributionOf([])).toEqual({ count: 0, mean: null, p5: null, p50: null, p95: null });
  });
});
