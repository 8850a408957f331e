import fc from 'fast-check';
import { isMultipleOf } from '../decimal/decimal-math';
import { coarserLotSize } from '../market/market-rules';
import { big, btcMarket, legRules, stepArb } from '../testing/fixtures';
import { makerOrderSize, minimumMakerOrderSize } from './maker-order-size';
import { fillAmount, remainingBaseSize, remainingSize } from './size-type';
import { isAcceptableOrderSize } from './venue-minimums';

const btcLong = {
  makerLeg: 'long' as const,
  market: btcMarket(),
  makerPrice: big('100000'),
  hedgeReference: big('100000.5'),
};

describe('size types', () => {
  it('counts a fill in base units or in USD', () => {
    expect(fillAmount('base', big('100000'), big('0.015')).toFixed()).toBe('0.015');
    expect(fillAmount('notional', big('100000.5'), big('0.015')).toFixed()).toBe('1500.0075');
  });

  it('never reports a negative remainder', () => {
    expect(remainingSize(big('1.5'), big('0.25')).toFixed()).toBe('1.25');
    expect(remainingSize(big('1.5'), big('1.51')).toFixed()).toBe('0');
  });

  it('works a remainder out once per target and filled size, and again when either changes', () => {
    const target = big('1.5');
    const filled = big('0.25');
    const remaining = remainingSize(target, filled);
    expect(remainingSize(target, filled)).toBe(remaining);
    expect(remainingSize(big('2'), filled).toFixed()).toBe('1.75');
    expect(remainingSize(target, big('0.5')).toFixed()).toBe('1');
    expect(remainingSize(big('1.5'), filled).toFixed()).toBe('1.25');
  });

  it('converts a notional remainder at the quote price, truncated', () => {
    expect(remainingBaseSize('notional', big('1000'), big('3')).toFixed()).toBe(
      `333.${'3'.repeat(40)}`,
    );
    expect(remainingBaseSize('base', big('2'), big('3')).toFixed()).toBe('2');
  });
});

describe('maker order size', () => {
  describe('a remainder the coarser lot cannot make (a partial fill on the finer venue)', () => {
    // Paradex-like maker (lot 0.00001, min notional 100), Aster-like hedge (lot 0.001).
    const finerMaker = {
      makerLeg: 'long' as const,
      market: {
        long: legRules({ tick: '0.1', lot: '0.00001', minSize: '0.0001', minNotional: '100' }),
        short: legRules({ tick: '0.1', lot: '0.001', minSize: '0.001', minNotional: '5' }),
      },
      makerPrice: big('97000'),
      hedgeReference: big('97000'),
      sizeType: 'base' as const,
    };

    it('completes the target when a full fill hedges with the waiting residue in whole lots', () => {
      // 0.00366 of 0.005 filled, 0.003 hedged: 0.00066 waits; 0.00134 (130 USD) remains.
      expect(
        makerOrderSize({
          ...finerMaker,
          remaining: big('0.00134'),
          unhedgedResidue: big('0.00066'),
        }),
      ).toEqual({ kind: 'order', size: big('0.00134') });
    });

    it('leaves out what would leave the hedge short of a whole lot', () => {
      // Residue 0.00016: 0.00184 of the remainder hedges with it as 0.002; 0.00001 stays.
      expect(
        makerOrderSize({
          ...finerMaker,
          remaining: big('0.00185'),
          unhedgedResidue: big('0.00016'),
        }),
      ).toEqual({ kind: 'order', size: big('0.00184') });
    });

    it('is too small when the completing order misses the maker minimum', () => {
      expect(
        makerOrderSize({
          ...finerMaker,
          remaining: big('0.00084'),
          unhedgedResidue: big('0.00016'),
        }),
      ).toEqual({ kind: 'too_small', remainingBase: big('0.00084') });
    });
  });

  it('rounds the remainder down to the coarser lot', () => {
    expect(coarserLotSize(btcMarket()).toFixed()).toBe('0.01');
    expect(makerOrderSize({ ...btcLong, sizeType: 'base', remaining: big('1.2345') })).toEqual({
      kind: 'order',
      size: big('1.23'),
    });
  });

  it('converts a notional remainder at the maker price', () => {
    expect(makerOrderSize({ ...btcLong, sizeType: 'notional', remaining: big('5000') })).toEqual({
      kind: 'order',
      size: big('0.05'),
    });
    expect(makerOrderSize({ ...btcLong, sizeType: 'notional', remaining: big('999') })).toEqual({
      kind: 'too_small',
      remainingBase: big('0.00999'),
    });
  });

  it('reports a remainder below one acceptable order as too small', () => {
    expect(makerOrderSize({ ...btcLong, sizeType: 'base', remaining: big('0') })).toEqual({
      kind: 'too_small',
      remainingBase: big('0'),
    });
    expect(makerOrderSize({ ...btcLong, sizeType: 'base', remaining: big('0.009') })).toEqual({
      kind: 'too_small',
      remainingBase: big('0.009'),
    });
  });

  it('meets the hedge venue min_notional with head-room, and the maker one at P', () => {
    const eth = {
      makerLeg: 'short' as const,
      market: {
        long: legRules({ tick: '0.01', lot: '0.01', minSize: '0.01', minNotional: '100' }),
        short: legRules({ tick: '0.1', lot: '0.001', minSize: '0.001' }),
      },
      makerPrice: big('2001'),
      hedgeReference: big('2000'),
    };
    // 100 * 1.05 / 2000 = 0.0525, up to the 0.01 lot.
    expect(minimumMakerOrderSize(eth).toFixed()).toBe('0.06');
    const cheap = {
      makerLeg: 'long' as const,
      market: {
        long: legRules({ tick: '0.0001', lot: '1', minSize: '1', minNotional: '10' }),
        short: legRules({ tick: '0.0001', lot: '1', minSize: '1' }),
      },
      makerPrice: big('3'),
      hedgeReference: big('3.0001'),
    };
    expect(minimumMakerOrderSize(cheap).toFixed()).toBe('4');
  });
});

const sizingCase = fc
  .record({
    makerLeg: fc.constantFrom('long' as const, 'short' as const),
    lots: fc.tuple(stepArb(-4, 1), stepArb(-4, 1)),
    minLots: fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 })),
    minNotionals: fc.tuple(
      fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
      fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
    ),
    priceCents: fc.integer({ min: 1, max: 20_000_000 }),
    hedgeOffsetBps: fc.integer({ min: -50, max: 50 }),
    sizeType: fc.constantFrom('base' as const, 'notional' as const),
    remainingMillis: fc.integer({ min: 0, max: 100_000_000 }),
  })
  .map((r) => {
    const rules = (i: 0 | 1) =>
      legRules({
        tick: '0.01',
        lot: r.lots[i].toFixed(),
        minSize: r.lots[i].times(r.minLots[i]).toFixed(),
        minNotional: r.minNotionals[i]?.toString(),
      });
    const makerPrice = big(r.priceCents.toString()).div(100);
    return {
      makerLeg: r.makerLeg,
      market: { long: rules(0), short: rules(1) },
      makerPrice,
      hedgeReference: makerPrice
        .times(10000 + r.hedgeOffsetBps)
        .div(10000)
        .round(2),
      sizeType: r.sizeType,
      remaining: big(r.remainingMillis.toString()).div(1000),
    };
  })
  .filter((c) => c.hedgeReference.gt(0));

describe('maker order size properties', () => {
  it('is a whole number of lots on both venues, at or above both minimums, within the remainder', () => {
    fc.assert(
      fc.property(sizingCase, (input) => {
        const sizing = makerOrderSize(input);
        const base = remainingBaseSize(input.sizeType, input.remaining, input.makerPrice);
        if (sizing.kind === 'too_small') {
          expect(sizing.remainingBase.lt(minimumMakerOrderSize(input))).toBe(true);
          return;
        }
        const { size } = sizing;
        const maker = input.makerLeg === 'long' ? input.market.long : input.market.short;
        const hedge = input.makerLeg === 'long' ? input.market.short : input.market.long;
        expect(isAcceptableOrderSize(size, maker, input.makerPrice)).toBe(true);
        expect(isAcceptableOrderSize(size, hedge, input.hedgeReference)).toBe(true);
        expect(size.lte(base)).toBe(true);
        expect(fillAmount(input.sizeType, input.makerPrice, size).lte(input.remaining)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('orders exactly the sizes at or above the minimum order', () => {
    fc.assert(
      fc.property(sizingCase, (input) => {
        const sizing = makerOrderSize(input);
        const base = remainingBaseSize(input.sizeType, input.remaining, input.makerPrice);
        const floored = base.minus(base.mod(coarserLotSize(input.market)));
        expect(sizing.kind === 'order').toBe(floored.gte(minimumMakerOrderSize(input)));
      }),
      { numRuns: 500 },
    );
  });

  it('the minimum order is the smallest lot multiple meeting every minimum', () => {
    fc.assert(
      fc.property(sizingCase, (input) => {
        const minimum = minimumMakerOrderSize(input);
        const lot = coarserLotSize(input.market);
        expect(isMultipleOf(minimum, lot)).toBe(true);
        if (minimum.eq(lot)) {
          return;
        }
        const smaller = makerOrderSize({
          ...input,
          sizeType: 'base',
          remaining: minimum.minus(lot),
        });
        expect(smaller.kind).toBe('too_small');
        expect(makerOrderSize({ ...input, sizeType: 'base', remaining: minimum }).kind).toBe(
          'order',
        );
      }),
      { numRuns: 500 },
    );
  });
});
