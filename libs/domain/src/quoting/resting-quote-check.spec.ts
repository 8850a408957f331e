import Big from 'big.js';
import fc from 'fast-check';
import { coarserTickSize } from '../market/market-rules';
import { hedgeRules, makerRules } from '../spread/legs';
import { toAbsoluteSpread } from '../spread/spread';
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

describe('RestingQuoteCheck on integers', () => {
  /** The same moves with the touch and H off their grids by sevenths of a tick (a glitch, a mid). */
  const offGrid = fc
    .tuple(
      restingThenMove,
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 0, max: 6 }),
    )
    .map(([move, bidSevenths, askSevenths, hSevenths]) => {
      const { makerLeg, market } = move.moved;
      const off = (tick: Big, sevenths: number) =>
        tick.times(sevenths).div(7).round(6, Big.roundDown);
      const makerTick = makerRules(market, makerLeg).tickSize;
      const hedgeTick = hedgeRules(market, makerLeg).tickSize;
      const { bestBid, bestAsk } = move.moved.makerTouch;
      return {
        ...move,
        moved: {
          ...move.moved,
          makerTouch: {
            bestBid: bestBid.plus(off(makerTick, bidSevenths)),
            bestAsk: bestAsk.plus(off(makerTick, askSevenths)),
          },
          hedgeReference: move.moved.hedgeReference.plus(off(hedgeTick, hSevenths)),
        },
      };
    });

  /**
   * Orders resting where a rule's value is a few ticks (or sevenths of one)
   * from zero at the moved H, on or off the grid, so the bounds meet their
   * edges: the room equal to the tolerance, the touch exactly its lead.
   */
  const atTheEdge = fc
    .tuple(
      restingThenMove,
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -6, max: 6 }),
      fc.boolean(),
    )
    .map(([move, ticks, sevenths, worst]) => {
      const { makerLeg, market, terms, hedgeReference } = move.moved;
      const tick = makerRules(market, makerLeg).tickSize;
      const spread = worst && move.moved.worstSpread ? move.moved.worstSpread : terms.targetSpread;
      const usd = toAbsoluteSpread(spread, terms.spreadType, {
        hedgeReference,
        coarserTickSize: coarserTickSize(market),
      });
      const edge = makerLeg === 'long' ? hedgeReference.minus(usd) : hedgeReference.plus(usd);
      const away = tick.times(ticks).plus(tick.times(sevenths).div(7).round(6, Big.roundDown));
      const price = makerLeg === 'long' ? edge.minus(away) : edge.plus(away);
      return { ...move, price };
    });

  /** The maker touch a few ticks from such an order, off the grid by as much as it is. */
  const touchNearTheOrder = fc
    .tuple(atTheEdge, fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 3 }))
    .map(([move, ticks, widthTicks]) => {
      const { makerLeg, market } = move.moved;
      const tick = makerRules(market, makerLeg).tickSize;
      const near = move.price.plus(tick.times(makerLeg === 'long' ? ticks : -ticks));
      const far = tick.times(widthTicks);
      const makerTouch =
        makerLeg === 'long'
          ? { bestBid: near, bestAsk: near.plus(far) }
          : { bestBid: near.minus(far), bestAsk: near };
      return { ...move, moved: { ...move.moved, makerTouch } };
    });

  it('answers what the decimal rules answer, whenever its values fit a double', () => {
    let inUnits = 0;
    let beyondTheTouch = 0;
    fc.assert(
      fc.property(
        fc.oneof(restingThenMove, offGrid, atTheEdge, touchNearTheOrder),
        ({ before, moved, mode, price }) => {
          fc.pre(price.gt(0));
          const check = new RestingQuoteCheck(mode, before);
          const { makerTouch, hedgeReference } = moved;
          // Once at another price and H first: what it worked out for those must not linger.
          check.urgencyInUnits(price.plus(1), makerTouch, hedgeReference.plus('0.001'));
          const units = check.urgencyInUnits(price, makerTouch, hedgeReference);
          const decimals = check.urgencyInDecimals(price, makerTouch, hedgeReference);
          if (units !== null) {
            inUnits += 1;
            beyondTheTouch += units === 'off_touch' ? 1 : 0;
            expect(units).toBe(decimals);
          }
          expect(check.urgency(price, makerTouch, hedgeReference)).toBe(decimals);
        },
      ),
      { numRuns: 12000, seed: 61 },
    );
    // Most moves fit (the rest: H in the millions against a slope of many places).
    expect(inUnits).toBeGreaterThan(8000);
    expect(beyondTheTouch).toBeGreaterThan(200);
  });

  it('leaves to the decimals what a double cannot hold', () => {
    const rules = {
      makerLeg: 'long' as const,
      market: btcMarket(),
      terms: { spreadType: 'bps' as const, condition: 'gte' as const, targetSpread: big('1.5') },
    };
    const check = new RestingQuoteCheck('default', rules);
    const touch = { bestBid: big('9999999999.1'), bestAsk: big('9999999999.3') };
    const h = big('10000000000.123456789');
    expect(check.urgencyInUnits(big('9999999998'), touch, h)).toBeNull();
    expect(check.urgency(big('9999999998'), touch, h)).toBe(
      check.urgencyInDecimals(big('9999999998'), touch, h),
    );
  });
});
