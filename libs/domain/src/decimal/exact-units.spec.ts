import Big from 'big.js';
import fc from 'fast-check';
import { differenceEquals } from './difference-equals';
import { exactMinus, exactPlus, exactTimes, roundedQuotient } from './exact-units';

/** Whole numbers around the edge of what a double holds exactly. */
const wholeArb = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map(Number),
  fc.bigInt({ min: 2n ** 26n, max: 2n ** 27n }).map(Number),
);

/** Decimals of 0 to 12 places and up to 20 digits: some fit a double as units, some do not. */
const decimalArb = fc
  .tuple(
    fc.oneof(
      fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
    ),
    fc.integer({ min: 0, max: 12 }),
  )
  .map(([digits, places]) => new Big(digits.toString()).div(new Big(10).pow(places)));

describe('exact units', () => {
  it('give the true product, sum and difference, or NaN when a double cannot hold it', () => {
    fc.assert(
      fc.property(wholeArb, wholeArb, (a, b) => {
        fc.pre(Number.isSafeInteger(a) && Number.isSafeInteger(b));
        const cases: Array<[number, bigint]> = [
          [exactTimes(a, b), BigInt(a) * BigInt(b)],
          [exactPlus(a, b), BigInt(a) + BigInt(b)],
          [exactMinus(a, b), BigInt(a) - BigInt(b)],
        ];
        for (const [got, truth] of cases) {
          const fits =
            truth <= BigInt(Number.MAX_SAFE_INTEGER) && -truth <= BigInt(Number.MAX_SAFE_INTEGER);
          expect(Number.isNaN(got)).toBe(!fits);
          if (fits) {
            expect(BigInt(got)).toBe(truth);
          }
        }
      }),
      { numRuns: 5000, seed: 61 },
    );
  });

  it('round a quotient as big.js rounds it, half up and half even', () => {
    const rounding = { half_up: Big.roundHalfUp, half_even: Big.roundHalfEven } as const;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10_000, max: 10_000 }), wholeArb),
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 40 })),
        fc.constantFrom('half_up' as const, 'half_even' as const),
        (dividend, divisor, mode) => {
          fc.pre(Number.isSafeInteger(dividend));
          const truth = new Big(dividend).div(divisor).round(0, rounding[mode]);
          // A zero's sign aside (`+ 0`): the figures it makes are magnitudes.
          expect(roundedQuotient(dividend, divisor, mode) + 0).toBe(truth.toNumber() + 0);
        },
      ),
      { numRuns: 5000, seed: 61 },
    );
    // Ties, both ways and both signs.
    expect([5, 15, -5, -15].map((n) => roundedQuotient(n, 10, 'half_up'))).toEqual([1, 2, -1, -2]);
    expect([5, 15, -5, -15].map((n) => roundedQuotient(n, 10, 'half_even') + 0)).toEqual([
      0, 2, 0, -2,
    ]);
    expect(roundedQuotient(1, 0, 'half_up')).toBeNaN();
    expect(roundedQuotient(2 ** 60, 3, 'half_up')).toBeNaN();
  });

  it('tell a difference equal exactly as big.js does', () => {
    fc.assert(
      fc.property(decimalArb, decimalArb, fc.nat(2), decimalArb, (a, b, pick, other) => {
        // The difference itself, one unit of its last place off it, or anything.
        const places = Math.max(0, a.c.length - 1 - a.e, b.c.length - 1 - b.e);
        const unit = new Big(1).div(new Big(10).pow(places));
        const value = [a.minus(b), a.minus(b).minus(unit), other][pick];
        expect(differenceEquals(a, b, value)).toBe(a.minus(b).eq(value));
      }),
      { numRuns: 5000, seed: 61 },
    );
  });
});
