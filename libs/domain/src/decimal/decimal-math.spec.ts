import Big from 'big.js';
import fc from 'fast-check';
import { big, stepArb } from '../testing/fixtures';
import {
  ceilToStep,
  divide,
  divideRounded,
  floorToStep,
  isMultipleOf,
  leastCommonMultiple,
  maxOf,
  minOf,
  stepsToReach,
} from './decimal-math';

describe('decimal math', () => {
  it('rounds to a step in both directions, exactly', () => {
    expect(floorToStep(big('100.37'), big('0.5')).toFixed()).toBe('100');
    expect(ceilToStep(big('100.37'), big('0.5')).toFixed()).toBe('100.5');
    expect(floorToStep(big('100.5'), big('0.5')).toFixed()).toBe('100.5');
    expect(ceilToStep(big('100.5'), big('0.5')).toFixed()).toBe('100.5');
    expect(floorToStep(big('-0.3'), big('0.25')).toFixed()).toBe('-0.5');
    expect(ceilToStep(big('-0.3'), big('0.25')).toFixed()).toBe('-0.25');
    expect(floorToStep(big('0.000000123456'), big('0.00000001')).toFixed()).toBe('0.00000012');
  });

  it('gives back a value already on a power-of-ten grid itself, allocating nothing', () => {
    const touch = big('100.5');
    expect(floorToStep(touch, big('0.1'))).toBe(touch);
    expect(ceilToStep(touch, big('0.01'))).toBe(touch);
    expect(floorToStep(big('1e3'), big('1')).toFixed()).toBe('1000');
    expect(floorToStep(big('-100.55'), big('0.1')).toFixed()).toBe('-100.6');
  });

  it('refuses a step that is not positive', () => {
    expect(() => floorToStep(big('1'), big('0'))).toThrow(RangeError);
    expect(() => isMultipleOf(big('1'), big('-1'))).toThrow(RangeError);
  });

  it('divides without the global Big settings', () => {
    const saved = Big.DP;
    Big.DP = 2;
    try {
      expect(divide(big('1'), big('3')).toFixed()).toBe(`0.${'3'.repeat(40)}`);
    } finally {
      Big.DP = saved;
    }
    expect(() => divide(big('1'), big('0'))).toThrow('division by zero');
  });

  it('finds the least common multiple of two lots', () => {
    expect(leastCommonMultiple(big('0.001'), big('0.01')).toFixed()).toBe('0.01');
    expect(leastCommonMultiple(big('0.2'), big('0.3')).toFixed()).toBe('0.6');
    expect(leastCommonMultiple(big('5'), big('0.02')).toFixed()).toBe('5');
    expect(leastCommonMultiple(big('0.25'), big('0.1')).toFixed()).toBe('0.5');
  });

  it('picks extremes', () => {
    expect(maxOf(big('1'), big('3'), big('2')).toFixed()).toBe('3');
    expect(minOf(big('1'), big('-3'), big('2')).toFixed()).toBe('-3');
  });

  it('property: floor <= value <= ceil, both on the step, less than a step apart', () => {
    fc.assert(
      fc.property(
        stepArb(-8, 2),
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 0, max: 12 }),
        (step, digits, scale) => {
          const value = new Big(digits.toString()).times(`1e-${scale}`);
          const floor = floorToStep(value, step);
          const ceil = ceilToStep(value, step);
          expect(floor.lte(value) && value.lte(ceil)).toBe(true);
          expect(isMultipleOf(floor, step) && isMultipleOf(ceil, step)).toBe(true);
          expect(ceil.minus(floor).lte(step)).toBe(true);
        },
      ),
    );
  });

  it('property: the least common multiple is the smallest multiple of both', () => {
    fc.assert(
      fc.property(stepArb(-6, 1), stepArb(-6, 1), (a, b) => {
        const lcm = leastCommonMultiple(a, b);
        expect(isMultipleOf(lcm, a) && isMultipleOf(lcm, b)).toBe(true);
        const larger = maxOf(a, b);
        const multiples = divide(lcm, larger).toNumber();
        for (let k = 1; k < multiples; k += 1) {
          expect(isMultipleOf(larger.times(k), minOf(a, b))).toBe(false);
        }
      }),
    );
  });

  it('counts the whole steps whose value reaches an amount', () => {
    expect(stepsToReach(big('10'), big('97000'), big('0.0001')).toFixed()).toBe('0.0002');
    expect(stepsToReach(big('10'), big('100'), big('0.1')).toFixed()).toBe('0.1');
    expect(stepsToReach(big('10.5'), big('100'), big('0.1')).toFixed()).toBe('0.2');
    expect(stepsToReach(big('5'), big('0.00001234'), big('1000')).toFixed()).toBe('406000');
    expect(() => stepsToReach(big('10'), big('0'), big('0.1'))).toThrow(RangeError);
  });

  it('property: steps to reach are the 40-place quotient rounded up to the step', () => {
    const decimalArb = (maxScale: number) =>
      fc
        .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: maxScale }))
        .map(([digits, scale]) => new Big(digits.toString()).times(`1e-${scale}`));
    fc.assert(
      fc.property(decimalArb(4), decimalArb(8), stepArb(-6, 2), (amount, price, step) => {
        const reference = ceilToStep(divide(amount, price), step);
        const steps = stepsToReach(amount, price, step);
        expect(isMultipleOf(steps, step)).toBe(true);
        expect(steps.times(price).gte(amount)).toBe(true);
        expect(steps.minus(step).times(price).lt(amount)).toBe(true);
        // The truncated 40-place quotient can only round to the same step or, on an exact
        // multiple hidden past the 40th place, one step below.
        expect(steps.eq(reference) || steps.minus(step).eq(reference)).toBe(true);
      }),
    );
  });

  it('divides to a few places, rounding the exact quotient', () => {
    expect(divideRounded(big('2'), big('3'), 4, Big.roundHalfUp).toFixed()).toBe('0.6667');
    expect(divideRounded(big('2'), big('3'), 4, Big.roundDown).toFixed()).toBe('0.6666');
    // Exactly half at the fifth place: half-even goes to the even digit, half-up goes up.
    expect(divideRounded(big('0.00025'), big('1'), 3, Big.roundHalfEven).toFixed()).toBe('0');
    expect(divideRounded(big('0.0015'), big('1'), 3, Big.roundHalfEven).toFixed()).toBe('0.002');
    expect(divideRounded(big('0.0035'), big('1'), 3, Big.roundHalfEven).toFixed()).toBe('0.004');
    expect(divideRounded(big('0.0025'), big('1'), 3, Big.roundHalfUp).toFixed()).toBe('0.003');
    // Just past half, however far out, rounds up.
    expect(
      divideRounded(big(`0.0025${'0'.repeat(40)}1`), big('1'), 3, Big.roundHalfEven).toFixed(),
    ).toBe('0.003');
    expect(() => divideRounded(big('1'), big('0'), 4, Big.roundHalfUp)).toThrow('division by zero');
  });

  it('property: a rounded quotient is the exact one rounded (checked in integers)', () => {
    const scaledArb = fc.tuple(
      fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
      fc.integer({ min: 0, max: 10 }),
    );
    fc.assert(
      fc.property(
        scaledArb,
        scaledArb.filter(([digits]) => digits !== 0n),
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom(Big.roundDown, Big.roundHalfUp, Big.roundHalfEven, Big.roundUp),
        ([a, as], [b, bs], places, mode) => {
          const dividend = new Big(a.toString()).times(`1e-${as}`);
          const divisor = new Big(b.toString()).times(`1e-${bs}`);
          const result = divideRounded(dividend, divisor, places, mode);
          // |dividend / divisor| x 10^places = num / den, in integers.
          const scale = Math.max(as, bs);
          const abs = (x: bigint): bigint => (x < 0n ? -x : x);
          const num = abs(a) * 10n ** BigInt(scale - as + places);
          const den = abs(b) * 10n ** BigInt(scale - bs);
          const floor = num / den;
          const twice = 2n * (num % den);
          const up =
            mode === Big.roundDown
              ? false
              : mode === Big.roundUp
                ? num % den !== 0n
                : twice > den || (twice === den && (mode === Big.roundHalfUp || floor % 2n === 1n));
          const magnitude = floor + (up ? 1n : 0n);
          const negative = a < 0n !== b < 0n && magnitude !== 0n;
          const expected = new Big(`${negative ? '-' : ''}${magnitude}`).times(`1e-${places}`);
          expect(result.eq(expected)).toBe(true);
        },
      ),
    );
  });
});
