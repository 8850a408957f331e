import Big from 'big.js';
import fc from 'fast-check';
import { MIN_NOTIONAL_HEADROOM } from './maker-order-size';
import { notionalAtLeast, notionalAtLeastInUnits } from './notional-at-least';

/** A decimal of `digits` up to 10^maxDigits with 0 to `maxPlaces` places. */
const decimalArb = (maxDigits: number, maxPlaces: number) =>
  fc
    .tuple(
      fc.bigInt({ min: 1n, max: 10n ** BigInt(maxDigits) }),
      fc.integer({ min: 0, max: maxPlaces }),
    )
    .map(([digits, places]) => new Big(digits.toString()).div(new Big(10).pow(places)));

const factorArb = fc.constantFrom(new Big(1), MIN_NOTIONAL_HEADROOM, new Big('1.125'));

/**
 * A size, a price, a minimum and a head-room: realistic ones (a size in lots,
 * a price, a minimum of a few USD), ones past what a double holds as units,
 * and ones exactly at the minimum or a unit of its last place either side.
 */
const caseArb = fc.oneof(
  fc.record({
    size: decimalArb(7, 5),
    price: decimalArb(8, 4),
    minimum: decimalArb(5, 2),
    factor: factorArb,
  }),
  fc.record({
    size: decimalArb(20, 12),
    price: decimalArb(20, 8),
    minimum: decimalArb(20, 6),
    factor: factorArb,
  }),
  fc
    .record({
      size: decimalArb(7, 5),
      price: decimalArb(8, 4),
      factor: factorArb,
      unitsOff: fc.integer({ min: -1, max: 1 }),
    })
    .map(({ size, price, factor, unitsOff }) => {
      const notional = size.times(price);
      const places = Math.max(0, notional.c.length - 1 - notional.e);
      const edge = notional.plus(new Big(unitsOff).div(new Big(10).pow(places)));
      // A minimum whose head-room lands on (or next to) the notional, where one exists.
      const minimum = edge.div(factor).round(places + 4, Big.roundDown);
      return { size, price, minimum: minimum.gt(0) ? minimum : edge, factor };
    }),
);

describe('notionalAtLeast', () => {
  it('decides on integers as big.js does, whenever the values fit a double', () => {
    let inUnits = 0;
    fc.assert(
      fc.property(caseArb, ({ size, price, minimum, factor }) => {
        const decimals = size.times(price).gte(minimum.times(factor));
        const units = notionalAtLeastInUnits(size, price, minimum, factor);
        if (units !== null) {
          inUnits += 1;
          expect(units).toBe(decimals);
        }
        expect(notionalAtLeast(size, price, minimum, factor)).toBe(decimals);
      }),
      { numRuns: 6000, seed: 61 },
    );
    expect(inUnits).toBeGreaterThan(2500);
  });

  it('leaves to big.js a notional past what a double holds', () => {
    const size = new Big('123456789.123456789');
    const price = new Big('98765.4321');
    expect(notionalAtLeastInUnits(size, price, new Big(5))).toBeNull();
    expect(notionalAtLeast(size, price, new Big(5))).toBe(true);
  });
});
