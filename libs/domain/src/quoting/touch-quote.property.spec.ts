import Big from 'big.js';
import fc from 'fast-check';
import { hedgeRules } from '../spread/legs';
import { type MakerOrderSizing, makerOrderSize } from '../sizing/maker-order-size';
import { quoteCycle } from '../testing/quote-cycle';
import { QUOTE_MODES, type QuoteMode } from '../trade/trade-terms';
import type { AggressiveQuoteInput } from './aggressive-quote';
import { quoteMakerPrice } from './quote';
import { touchQuote, touchQuoteHolds } from './touch-quote';

/** The whole quote of a cycle, as the worker makes it: the price, then the size at that price. */
const fullQuote = (
  mode: QuoteMode,
  input: AggressiveQuoteInput,
  remaining: Big,
): { price: Big; sizing: MakerOrderSizing } | null => {
  const price = quoteMakerPrice(mode, input);
  if (price === null) {
    return null;
  }
  const sizing = makerOrderSize({
    makerLeg: input.makerLeg,
    market: input.market,
    makerPrice: price,
    hedgeReference: input.hedgeReference,
    sizeType: 'base',
    remaining,
  });
  return { price, sizing };
};

/**
 * A cycle that quoted, then H alone moving by a few hedge ticks. The hedge
 * venue sometimes has a min_notional close to the order's value, so a move
 * of H can make the size unacceptable.
 */
const hedgeMove = fc
  .record({
    input: quoteCycle,
    mode: fc.constantFrom(...QUOTE_MODES),
    lots: fc.integer({ min: 1, max: 40 }),
    notionalShare: fc.option(fc.integer({ min: 80, max: 101 }), { nil: undefined }),
    hTicks: fc.integer({ min: -60, max: 60 }),
  })
  .map(({ input, mode, lots, notionalShare, hTicks }) => {
    const remaining = new Big('0.001').times(lots);
    const hedge = hedgeRules(input.market, input.makerLeg);
    const hedgeTick = hedge.tickSize;
    const withNotional =
      notionalShare === undefined
        ? input
        : {
            ...input,
            market: {
              ...input.market,
              [input.makerLeg === 'long' ? 'short' : 'long']: {
                ...hedge,
                // Near the order's value at H, head-room included, so a small move decides.
                minNotional: remaining
                  .times(input.hedgeReference)
                  .times(notionalShare)
                  .div(105)
                  .round(6),
              },
            },
          };
    const moved = {
      ...withNotional,
      hedgeReference: input.hedgeReference.plus(hedgeTick.times(hTicks)),
    };
    return { before: withNotional, after: moved, mode, remaining };
  });

type HedgeMove = typeof hedgeMove extends fc.Arbitrary<infer T> ? T : never;

/** The quote before the move, when it sat at the touch price with an acceptable size. */
const touchBound = ({ before, mode, remaining }: HedgeMove) => {
  const quote = fullQuote(mode, before, remaining);
  const atTouch = touchQuote(mode, before);
  if (quote === null || quote.sizing.kind !== 'order' || atTouch === null) {
    return null;
  }
  if (!quote.price.eq(atTouch)) {
    return null;
  }
  return { price: quote.price, size: quote.sizing.size };
};

describe('touch quote under a move of H', () => {
  it('holds exactly when a fresh quote at the new H is the same price and size', () => {
    fc.assert(
      fc.property(hedgeMove, (move) => {
        const settled = touchBound(move);
        fc.pre(settled !== null);
        const after = fullQuote(move.mode, move.after, move.remaining);
        const same =
          after !== null &&
          after.price.eq(settled!.price) &&
          after.sizing.kind === 'order' &&
          after.sizing.size.eq(settled!.size);
        expect(touchQuoteHolds(move.mode, settled!, move.after)).toBe(same);
      }),
      { numRuns: 1500 },
    );
  });

  it('generates moves that keep the quote and moves that change it', () => {
    const samples = fc.sample(hedgeMove, { numRuns: 4000, seed: 11 });
    const outcomes = samples.flatMap((move) => {
      const settled = touchBound(move);
      return settled === null ? [] : [touchQuoteHolds(move.mode, settled, move.after)];
    });
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(200);
    expect(outcomes.filter((holds) => !holds).length).toBeGreaterThan(100);
  });
});
