import fc from 'fast-check';
import { hedgeRules, makerRules } from '../spread/legs';
import { big, btcMarket } from '../testing/fixtures';
import { quoteCycle } from '../testing/quote-cycle';
import { QUOTE_MODES } from '../trade/trade-terms';
import { quoteMakerPrice } from './quote';
import { requoteUrgency } from './requote-urgency';
import { RestingQuoteCheck } from './resting-quote-check';

/**
 * The compiled check against the rule it compiles: an order rests where a
 * cycle quoted it (or some ticks off), then the maker touch and H move.
 */
const restingThenMove = fc
  .record({
    input: quoteCycle,
    mode: fc.constantFrom(...QUOTE_MODES),
    offsetTicks: fc.integer({ min: -8, max: 8 }),
    touchTicks: fc.integer({ min: -12, max: 12 }),
    widthTicks: fc.integer({ min: -1, max: 6 }),
    hTicks: fc.integer({ min: -40, max: 40 }),
  })
  .map(({ input, mode, offsetTicks, touchTicks, widthTicks, hTicks }) => {
    const tick = makerRules(input.market, input.makerLeg).tickSize;
    const hedgeTick = hedgeRules(input.market, input.makerLeg).tickSize;
    const price = (quoteMakerPrice(mode, input) ?? input.makerTouch.bestBid).plus(
      tick.times(offsetTicks),
    );
    const bestBid = input.makerTouch.bestBid.plus(tick.times(touchTicks));
    const moved = {
      ...input,
      makerTouch: { bestBid, bestAsk: bestBid.plus(tick.times(widthTicks)) },
      hedgeReference: input.hedgeReference.plus(hedgeTick.times(hTicks)),
    };
    return { before: input, moved, mode, price };
  });

describe('RestingQuoteCheck', () => {
  it('answers what requoteUrgency answers, on every move', () => {
    fc.assert(
      fc.property(restingThenMove, ({ before, moved, mode, price }) => {
        if (price.lte(0)) {
          return true;
        }
        const check = new RestingQuoteCheck(mode, before);
        // Once at another price first: what it worked out for that one must not linger.
        check.urgency(price.plus(1), moved.makerTouch, moved.hedgeReference);
        return (
          check.urgency(price, moved.makerTouch, moved.hedgeReference) ===
          requoteUrgency(mode, price, moved)
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('tells the three urgencies apart on a known book', () => {
    const rules = {
      makerLeg: 'long' as const,
      market: btcMarket(),
      terms: { spreadType: 'bps' as const, condition: 'gte' as const, targetSpread: big('1') },
    };
    const touch = { bestBid: big('99990'), bestAsk: big('99992') };
    // 1 bps of H 100000.5 is 10.00005 USD: bids up to 99990.4 are valid.
    expect(
      new RestingQuoteCheck('default', rules).urgency(big('99990'), touch, big('100000.5')),
    ).toBe('routine');
    expect(
      new RestingQuoteCheck('default', rules).urgency(big('99985'), touch, big('100000.5')),
    ).toBe('off_touch');
    expect(new RestingQuoteCheck('default', rules).urgency(big('99990'), touch, big('99999'))).toBe(
      'at_risk',
    );
  });
});
