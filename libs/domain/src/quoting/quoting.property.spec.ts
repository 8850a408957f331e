import Big from 'big.js';
import fc from 'fast-check';
import { floorToStep, isMultipleOf } from '../decimal/decimal-math';
import { coarserTickSize } from '../market/market-rules';
import { makerRules, makerSideTouch } from '../spread/legs';
import { absoluteSpread } from '../spread/spread';
import { quoteCycle } from '../testing/quote-cycle';
import type { SpreadCondition } from '../trade/trade-terms';
import { type AggressiveQuoteInput, aggressiveQuote } from './aggressive-quote';
import { defaultQuote, defaultQuoteInDecimals } from './default-quote';
import { decimalOfUnits, defaultQuoteInUnits, UNREPRESENTABLE, unitsOf } from './fixed-point-quote';
import { contains } from './price-range';
import { isValidMakerPrice, validMakerPriceRange } from './valid-maker-price';

/**
 * A spread in the trade's unit is `usd * scale / divisor`. Checks below compare
 * `usd * scale` with `value * divisor`: exact, and written the other way round
 * from the code under test (which converts the target to USD).
 */
const unitParts = (input: AggressiveQuoteInput, makerPrice: Big) => {
  const { terms, hedgeReference: h } = input;
  const tick = coarserTickSize(input.market);
  const [scale, divisor] =
    terms.spreadType === 'absolute'
      ? [new Big(1), new Big(1)]
      : terms.spreadType === 'percentage'
        ? [new Big(100), h]
        : terms.spreadType === 'bps'
          ? [new Big(10000), h]
          : [new Big(1), tick];
  const scaled = absoluteSpread(input.makerLeg, makerPrice, h).times(scale);
  return { scaled, divisor, halfTickScaled: tick.div(2).times(scale) };
};

/** The condition checked in the trade's own unit, the way a trader reads it. */
const satisfiesInUnits = (input: AggressiveQuoteInput, makerPrice: Big): boolean => {
  const { scaled, divisor, halfTickScaled } = unitParts(input, makerPrice);
  const target = input.terms.targetSpread.times(divisor);
  const cmp: Record<SpreadCondition, boolean> = {
    gte: scaled.gte(target),
    gt: scaled.gt(target),
    lte: scaled.lte(target),
    lt: scaled.lt(target),
    eq: scaled.minus(target).abs().lte(halfTickScaled),
  };
  return cmp[input.terms.condition];
};

const withinWorst = (input: AggressiveQuoteInput, price: Big): boolean => {
  if (input.worstSpread === undefined) {
    return true;
  }
  const { scaled, divisor } = unitParts(input, price);
  const worst = input.worstSpread.times(divisor);
  const target = input.terms.targetSpread.times(divisor);
  switch (input.terms.condition) {
    case 'gte':
    case 'gt':
      return scaled.gte(worst);
    case 'lte':
    case 'lt':
      return scaled.lte(worst);
    case 'eq':
      return scaled.minus(target).abs().lte(worst.minus(target).abs());
  }
};

const crossesTouch = (input: AggressiveQuoteInput, price: Big): boolean =>
  input.makerLeg === 'long'
    ? price.gte(input.makerTouch.bestAsk)
    : price.lte(input.makerTouch.bestBid);

/** Grid prices around the maker touch, to search the valid set by brute force. */
const gridAround = (input: AggressiveQuoteInput): Big[] => {
  const tick = makerRules(input.market, input.makerLeg).tickSize;
  const touch = floorToStep(makerSideTouch(input.makerLeg, input.makerTouch), tick);
  return Array.from({ length: 161 }, (_, i) => touch.plus(tick.times(i - 80))).filter((p) =>
    p.gt(0),
  );
};

const RUNS = { numRuns: 400 };

describe('quoting properties', () => {
  it('no quote ever crosses the maker touch', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        for (const quote of [defaultQuote(input), aggressiveQuote(input)]) {
          if (quote !== null) {
            expect(crossesTouch(input, quote)).toBe(false);
          }
        }
      }),
      RUNS,
    );
  });

  it('every quote is a valid maker price on the maker grid', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        const tick = makerRules(input.market, input.makerLeg).tickSize;
        for (const quote of [defaultQuote(input), aggressiveQuote(input)]) {
          if (quote === null) {
            continue;
          }
          expect(isValidMakerPrice(quote, input)).toBe(true);
          expect(isMultipleOf(quote, tick)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('no price the quote rule accepts yields a spread that violates the condition', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        for (const price of gridAround(input)) {
          if (isValidMakerPrice(price, input)) {
            expect(satisfiesInUnits(input, price)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('the valid range holds exactly the prices the rule accepts', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        const range = validMakerPriceRange(input);
        for (const price of gridAround(input)) {
          const inRange = range !== null && contains(range, price);
          expect(inRange).toBe(isValidMakerPrice(price, input));
        }
      }),
      RUNS,
    );
  });

  it('the default quote is the valid price nearest the touch, null only when none is valid', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        const quote = defaultQuote(input);
        const touch = makerSideTouch(input.makerLeg, input.makerTouch);
        for (const price of gridAround(input).filter((p) => isValidMakerPrice(p, input))) {
          expect(quote).not.toBeNull();
          expect(quote?.minus(touch).abs().lte(price.minus(touch).abs())).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('the aggressive quote is the most aggressive valid price within worst_spread', () => {
    fc.assert(
      fc.property(quoteCycle, (input) => {
        const quote = aggressiveQuote(input);
        if (quote !== null) {
          expect(withinWorst(input, quote)).toBe(true);
        }
        const candidates = gridAround(input).filter(
          (p) => isValidMakerPrice(p, input) && withinWorst(input, p),
        );
        for (const price of candidates) {
          expect(quote).not.toBeNull();
          const beaten =
            input.makerLeg === 'long' ? price.lte(quote as Big) : price.gte(quote as Big);
          expect(beaten).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('generates cycles that quote, so the properties above are not vacuous', () => {
    const samples = fc.sample(quoteCycle, { numRuns: 500, seed: 7 });
    const quoted = samples.filter((input) => defaultQuote(input) !== null).length;
    expect(quoted).toBeGreaterThan(100);
    expect(samples.length - quoted).toBeGreaterThan(50);
  });
});

describe('the default quote on integers', () => {
  const text = (price: Big | null): string | null => (price === null ? null : price.toFixed());

  /** The same cycles with the maker touch off its grid by sevenths of a tick (a venue glitch). */
  const offGrid = fc
    .tuple(quoteCycle, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }))
    .map(([input, bidSevenths, askSevenths]) => {
      const tick = makerRules(input.market, input.makerLeg).tickSize;
      const off = (sevenths: number) => tick.times(sevenths).div(7).round(6, Big.roundDown);
      return {
        ...input,
        makerTouch: {
          bestBid: input.makerTouch.bestBid.plus(off(bidSevenths)),
          bestAsk: input.makerTouch.bestAsk.plus(off(askSevenths)),
        },
      };
    });

  it('is the decimal quote, price for price, whenever the inputs fit a double', () => {
    let representable = 0;
    fc.assert(
      fc.property(fc.oneof(quoteCycle, offGrid), (input) => {
        const inUnits = defaultQuoteInUnits(input);
        const inDecimals = defaultQuoteInDecimals(input);
        if (inUnits !== UNREPRESENTABLE) {
          representable += 1;
          expect(text(inUnits)).toBe(text(inDecimals));
        }
        expect(text(defaultQuote(input))).toBe(text(inDecimals));
      }),
      { numRuns: 3000 },
    );
    // Most generated books fit (the rest: H in the millions with a bps target of 3 places, or a
    // touch off the grid by six places besides).
    expect(representable).toBeGreaterThan(1800);
  });

  it('falls back to decimals when an input needs more than a double holds', () => {
    const input = fc.sample(quoteCycle, { numRuns: 1, seed: 3 })[0];
    const huge = {
      ...input,
      hedgeReference: new Big('12345678901234567.5'),
      terms: { ...input.terms, spreadType: 'absolute' as const, condition: 'gte' as const },
    };
    expect(defaultQuoteInUnits(huge)).toBe(UNREPRESENTABLE);
    expect(text(defaultQuote(huge))).toBe(text(defaultQuoteInDecimals(huge)));
  });

  it('reads a decimal into units and back exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 49n), max: 2n ** 49n }),
        fc.integer({ min: 0, max: 12 }),
        (whole, scale) => {
          const value = decimalOfUnits(Number(whole), scale);
          expect(unitsOf(value, scale)).toBe(Number(whole));
          expect(value.eq(new Big(whole.toString()).div(new Big(10).pow(scale)))).toBe(true);
          if (scale > 0 && whole % 10n !== 0n) {
            expect(unitsOf(value, scale - 1)).toBeNull();
          }
        },
      ),
      RUNS,
    );
  });
});
