import fc from 'fast-check';
import { makerRules } from '../spread/legs';
import { big, btcMarket } from '../testing/fixtures';
import { quoteCycle } from '../testing/quote-cycle';
import { QUOTE_MODES } from '../trade/trade-terms';
import type { AggressiveQuoteInput } from './aggressive-quote';
import { contains, narrowed } from './price-range';
import { quoteMakerPrice } from './quote';
import { spreadBasisOf } from './quote-input';
import { moreUrgent, requoteUrgency } from './requote-urgency';
import { pricesForSpreads, validMakerPriceRange } from './valid-maker-price';
import { worstSpreadRange } from './worst-spread';

/** Maker long on the 0.1-tick venue, hedged by selling at H = 100000.5; the book 99990 / 99992. */
const longMaker = (
  overrides: Partial<AggressiveQuoteInput> & { target?: string } = {},
): AggressiveQuoteInput => ({
  makerLeg: 'long',
  terms: { spreadType: 'absolute', condition: 'gte', targetSpread: big(overrides.target ?? '5') },
  market: btcMarket(),
  makerTouch: { bestBid: big('99990'), bestAsk: big('99992') },
  hedgeReference: big('100000.5'),
  ...overrides,
});

describe('requoteUrgency', () => {
  it('is routine with no order resting', () => {
    expect(requoteUrgency('default', null, longMaker())).toBe('routine');
  });

  it('is routine for an order at the touch, or a tick from it', () => {
    expect(requoteUrgency('default', big('99990'), longMaker())).toBe('routine');
    expect(requoteUrgency('default', big('99989.9'), longMaker())).toBe('routine');
  });

  it('is off_touch for a valid order more than a tick behind a valid touch', () => {
    expect(requoteUrgency('default', big('99989.8'), longMaker())).toBe('off_touch');
    expect(requoteUrgency('default', big('99980'), longMaker())).toBe('off_touch');
  });

  it('is routine for an order the condition holds behind the touch', () => {
    // gte 12 at H 100000.5 allows bids up to 99988.5: the touch (99990) is not valid.
    expect(requoteUrgency('default', big('99988.5'), longMaker({ target: '12' }))).toBe('routine');
  });

  it('is at_risk when H moved so that a fill would miss the condition', () => {
    const moved = longMaker({ hedgeReference: big('99994') });
    expect(requoteUrgency('default', big('99990'), moved)).toBe('at_risk');
  });

  it('is at_risk when the maker book moved through the order', () => {
    const through = longMaker({ makerTouch: { bestBid: big('99985'), bestAsk: big('99990') } });
    expect(requoteUrgency('default', big('99990'), through)).toBe('at_risk');
    const crossed = longMaker({ makerTouch: { bestBid: big('99993'), bestAsk: big('99992') } });
    expect(requoteUrgency('default', big('99985'), crossed)).toBe('at_risk');
  });

  it('is at_risk for an aggressive order worse than worst_spread', () => {
    // Spread at 99991.9 is 8.6: fine for gte 5 alone, worse than worst_spread 9.
    const input = longMaker({ worstSpread: big('9') });
    expect(requoteUrgency('aggressive', big('99991.9'), input)).toBe('at_risk');
    // Ahead of the bid the default quote would join: valid, and leading already.
    expect(requoteUrgency('default', big('99991.9'), input)).toBe('routine');
  });

  it('ranks at_risk over off_touch over routine', () => {
    expect(moreUrgent('routine', 'off_touch')).toBe('off_touch');
    expect(moreUrgent('at_risk', 'off_touch')).toBe('at_risk');
    expect(moreUrgent('routine', 'routine')).toBe('routine');
  });

  it('never calls the price a quote cycle would choose wrong', () => {
    fc.assert(
      fc.property(quoteCycle, fc.constantFrom(...QUOTE_MODES), (input, mode) => {
        const price = quoteMakerPrice(mode, input);
        return price === null || requoteUrgency(mode, price, input) === 'routine';
      }),
      { numRuns: 2000 },
    );
  });

  it('calls at_risk exactly the orders outside the prices the rules allow now', () => {
    fc.assert(
      fc.property(
        quoteCycle,
        fc.constantFrom(...QUOTE_MODES),
        fc.integer({ min: -30, max: 30 }),
        (input, mode, offsetTicks) => {
          const tick = makerRules(input.market, input.makerLeg).tickSize;
          const anchor = quoteMakerPrice(mode, input) ?? input.makerTouch.bestBid;
          const price = anchor.plus(tick.times(offsetTicks));
          if (price.lte(0)) {
            return true;
          }
          // The range arithmetic the quotes are built on, apart from the rule stated per price.
          const valid = validMakerPriceRange(input);
          const allowed =
            valid && mode === 'aggressive' && input.worstSpread !== undefined
              ? narrowed(
                  valid,
                  pricesForSpreads(
                    input.makerLeg,
                    input.hedgeReference,
                    worstSpreadRange(input.terms, input.worstSpread, spreadBasisOf(input)),
                  ),
                )
              : valid;
          const outside = allowed === null || !contains(allowed, price);
          return (requoteUrgency(mode, price, input) === 'at_risk') === outside;
        },
      ),
      { numRuns: 3000 },
    );
  });
});
