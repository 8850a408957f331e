import Big from 'big.js';
import fc from 'fast-check';
import { floorToStep, isMultipleOf } from '../decimal/decimal-math';
import { coarserTickSize } from '../market/market-rules';
import { makerRules, makerSideTouch } from '../spread/legs';
import { absoluteSpread } from '../spread/spread';
import { quoteCycle } from '../testing/quote-cycle';
import type { SpreadCondition } from '../trade/trade-terms';
import { type AggressiveQuoteInput, aggressiveQuote } from './aggressive-quote';
import { defaultQuote } from './default-quote';
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
