import Big from 'big.js';
import fc from 'fast-check';
import { quoteCushionBps } from '../quoting/quote-cushion';
import type { MakerLeg } from '../trade/trade-terms';
import { adverseMove, adverseMoveBps, reachesThreshold } from './adverse-move';
import { cushionThresholdBps, cushionThresholdBpsInUnits } from './cushion-threshold';
import { defaultFastMoveThresholdBps } from './fast-move-settings';
import { adverseMoveBpsInUnits, reachesThresholdInUnits } from './move-in-units';

/** Prices of 0 to 8 places, mostly realistic, some past what a double holds as units. */
const priceArb = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 10 ** 7 }).map(BigInt) },
      { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 19n }) },
    ),
    fc.integer({ min: 0, max: 8 }),
  )
  .map(([digits, places]) => new Big(digits.toString()).div(new Big(10).pow(places)));

/** A second price near the first: within a few hundred bps, on its grid or finer. */
const nearPairArb = fc
  .tuple(priceArb, fc.integer({ min: -30_000, max: 30_000 }), fc.integer({ min: 0, max: 3 }))
  .map(([price, tenthsOfBps, extraPlaces]) => {
    const places = Math.max(0, price.c.length - 1 - price.e) + extraPlaces;
    const moved = price
      .times(100_000 + tenthsOfBps)
      .div(100_000)
      .round(places, Big.roundDown);
    return [price, moved.gt(0) ? moved : price] as const;
  });

/**
 * Pairs whose ratio in bps falls exactly halfway between two figures of 4
 * places: from = 2e8 t units, distance = (2q + 1) t units.
 */
const tiePairArb = fc
  .record({
    t: fc.integer({ min: 1, max: 50 }),
    q: fc.integer({ min: 0, max: 500_000 }),
    places: fc.integer({ min: 0, max: 4 }),
    down: fc.boolean(),
  })
  .map(({ t, q, places, down }) => {
    const unit = new Big(1).div(new Big(10).pow(places));
    const from = unit.times(2e8 * t);
    const distance = unit.times((2 * q + 1) * t);
    return [from, down ? from.minus(distance) : from.plus(distance)] as const;
  });

/** Thresholds as a trader gives them (up to 4 places, some more) and as the cushion gives them. */
const thresholdArb = fc.oneof(
  fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 10_000),
  fc.integer({ min: 1, max: 1000 }),
  fc.double({ min: 0.0001, max: 1000, noNaN: true }),
);

const legArb = fc.constantFrom<MakerLeg>('long', 'short');

describe('the fast-move guard on integers', () => {
  it('measures a move in bps as the decimals do', () => {
    let inUnits = 0;
    fc.assert(
      fc.property(legArb, fc.oneof(nearPairArb, tiePairArb), (makerLeg, [from, to]) => {
        const move = adverseMove(
          makerLeg,
          [{ timeMs: 0, price: from }],
          { timeMs: 1, price: to },
          10,
        );
        const bps = adverseMoveBpsInUnits(makerLeg, move.from, to);
        if (!Number.isNaN(bps)) {
          inUnits += 1;
          expect(bps).toBe(adverseMoveBps(move));
        }
      }),
      { numRuns: 6000, seed: 61 },
    );
    expect(inUnits).toBeGreaterThan(3000);
  });

  it('tells a threshold reached as the decimals do, at its edge too', () => {
    let inUnits = 0;
    const edge = fc.tuple(legArb, nearPairArb).map(([makerLeg, [from, to]]) => {
      const move = adverseMove(
        makerLeg,
        [{ timeMs: 0, price: from }],
        { timeMs: 1, price: to },
        10,
      );
      // The move's own bps to 4 places: reached exactly when it is not rounded up.
      return { makerLeg, move, thresholdBps: adverseMoveBps(move) };
    });
    const anyThreshold = fc
      .tuple(legArb, nearPairArb, thresholdArb)
      .map(([makerLeg, [from, to], thresholdBps]) => ({
        makerLeg,
        move: adverseMove(makerLeg, [{ timeMs: 0, price: from }], { timeMs: 1, price: to }, 10),
        thresholdBps,
      }));
    fc.assert(
      fc.property(fc.oneof(edge, anyThreshold), ({ makerLeg, move, thresholdBps }) => {
        const reached = reachesThresholdInUnits(makerLeg, move.from, move.to, thresholdBps);
        if (reached !== null) {
          inUnits += 1;
          expect(reached).toBe(reachesThreshold(move, thresholdBps));
        }
      }),
      { numRuns: 8000, seed: 61 },
    );
    expect(inUnits).toBeGreaterThan(4000);
  });

  it('gives the default threshold of the quote cushion as the decimals do', () => {
    let inUnits = 0;
    fc.assert(
      fc.property(fc.oneof(nearPairArb, tiePairArb), fc.boolean(), ([a, b], swap) => {
        const [price, h] = swap ? [b, a] : [a, b];
        const decimals = defaultFastMoveThresholdBps(quoteCushionBps(price, h));
        const threshold = cushionThresholdBpsInUnits(price, h);
        if (!Number.isNaN(threshold)) {
          inUnits += 1;
          expect(threshold).toBe(decimals);
        }
        expect(cushionThresholdBps(price, h)).toBe(decimals);
      }),
      { numRuns: 6000, seed: 61 },
    );
    expect(inUnits).toBeGreaterThan(3000);
  });
});
