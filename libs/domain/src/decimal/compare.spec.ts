import Big from 'big.js';
import fc from 'fast-check';
import { big } from '../testing/fixtures';
import { compare, signOf } from './compare';

/** Decimals as big.js holds them after arithmetic: any sign, scale and digit count, zero of either sign. */
const decimalArb = fc
  .tuple(
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    fc.integer({ min: -25, max: 25 }),
    fc.boolean(),
  )
  .map(([digits, shift, negativeZero]) => {
    const value = new Big(digits.toString()).times(new Big(10).pow(shift));
    if (negativeZero && digits === 0n) {
      value.s = -1;
    }
    return value;
  });

/** Pairs that share a sign, an exponent and leading digits, and differ deep down or in length. */
const nearPairArb = fc
  .tuple(decimalArb, fc.integer({ min: -9, max: 9 }), fc.integer({ min: 1, max: 30 }))
  .map(([value, delta, depth]) => [
    value,
    value.plus(new Big(delta).times(new Big(10).pow(value.e - depth))),
  ]);

describe('compare', () => {
  it('orders decimals as big.js does, for every sign, exponent and length', () => {
    fc.assert(
      fc.property(decimalArb, decimalArb, (a, b) => {
        expect(Math.sign(compare(a, b))).toBe(a.cmp(b));
        expect(Math.sign(compare(b, a))).toBe(b.cmp(a));
        expect(compare(a, a)).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('orders values that differ only in their last digits or their length', () => {
    fc.assert(
      fc.property(nearPairArb, ([a, b]) => {
        expect(Math.sign(compare(a, b))).toBe(a.cmp(b));
        expect(Math.sign(compare(b, a))).toBe(b.cmp(a));
      }),
      { numRuns: 2_000 },
    );
  });

  it('tells apart values that share a prefix, an exponent or only a sign', () => {
    expect(compare(big('100.5'), big('100.50'))).toBe(0);
    expect(compare(big('100.5'), big('100.51'))).toBeLessThan(0);
    expect(compare(big('100.51'), big('100.5'))).toBeGreaterThan(0);
    expect(compare(big('-100.51'), big('-100.5'))).toBeLessThan(0);
    expect(compare(big('99.99'), big('100'))).toBeLessThan(0);
    expect(compare(big('-99.99'), big('-100'))).toBeGreaterThan(0);
    expect(compare(big('-1'), big('1'))).toBeLessThan(0);
    expect(compare(big('0'), big('-0.0001'))).toBeGreaterThan(0);
    expect(compare(big('-0'), big('0'))).toBe(0);
  });

  it('does not copy or change its arguments', () => {
    const a = big('123.456');
    const b = big('123.4567');
    const [ac, bc] = [a.c, b.c];
    compare(a, b);
    expect(a.c).toBe(ac);
    expect(b.c).toBe(bc);
    expect([a.toFixed(), b.toFixed()]).toEqual(['123.456', '123.4567']);
  });
});

describe('signOf', () => {
  it('is the sign big.js gives against zero, negative zero included', () => {
    fc.assert(
      fc.property(decimalArb, (value) => {
        expect(signOf(value)).toBe(value.cmp(0));
      }),
    );
    expect(signOf(new Big('-0'))).toBe(0);
  });
});
