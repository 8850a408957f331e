/**
 * Spec-only: the quote cycles the quoting properties are checked on.
 */
import fc from 'fast-check';
import { floorToStep } from '../decimal/decimal-math';
import { coarserTickSize } from '../market/market-rules';
import type { AggressiveQuoteInput } from '../quoting/aggressive-quote';
import { makerSideTouch } from '../spread/legs';
import { absoluteSpread, toSpreadUnits } from '../spread/spread';
import { SPREAD_CONDITIONS, SPREAD_TYPES } from '../trade/trade-terms';
import { legRules, stepArb } from './fixtures';

/**
 * A quote cycle around a realistic book: H on the hedge grid, the maker book
 * near H (sometimes crossed), a target near the spread at the touch, and
 * sometimes a worst_spread near the target.
 */
export const quoteCycle: fc.Arbitrary<AggressiveQuoteInput> = fc
  .record({
    makerLeg: fc.constantFrom('long' as const, 'short' as const),
    longTick: stepArb(-3, 1),
    shortTick: stepArb(-3, 1),
    hTicks: fc.integer({ min: 1, max: 2_000_000 }),
    bidOffsetTicks: fc.integer({ min: -300, max: 300 }),
    widthTicks: fc.integer({ min: -1, max: 25 }),
    condition: fc.constantFrom(...SPREAD_CONDITIONS),
    spreadType: fc.constantFrom(...SPREAD_TYPES),
    targetDelta: fc.integer({ min: -40, max: 40 }),
    worstDelta: fc.option(fc.integer({ min: -20, max: 20 }), { nil: undefined }),
  })
  .map((r) => {
    const market = {
      long: legRules({ tick: r.longTick.toFixed(), lot: '0.001', minSize: '0.001' }),
      short: legRules({ tick: r.shortTick.toFixed(), lot: '0.001', minSize: '0.001' }),
    };
    const hedgeTick = r.makerLeg === 'long' ? r.shortTick : r.longTick;
    const makerTick = r.makerLeg === 'long' ? r.longTick : r.shortTick;
    const hedgeReference = hedgeTick.times(r.hTicks);
    const bestBid = floorToStep(hedgeReference, makerTick).plus(makerTick.times(r.bidOffsetTicks));
    const makerTouch = { bestBid, bestAsk: bestBid.plus(makerTick.times(r.widthTicks)) };
    const basis = { hedgeReference, coarserTickSize: coarserTickSize(market) };
    const atTouch = toSpreadUnits(
      absoluteSpread(r.makerLeg, makerSideTouch(r.makerLeg, makerTouch), hedgeReference),
      r.spreadType,
      basis,
    );
    const unitTick = toSpreadUnits(basis.coarserTickSize, r.spreadType, basis);
    const near = (delta: number) => atTouch.plus(unitTick.times(delta).div(4)).round(3);
    return {
      makerLeg: r.makerLeg,
      market,
      makerTouch,
      hedgeReference,
      terms: {
        spreadType: r.spreadType,
        condition: r.condition,
        targetSpread: near(r.targetDelta),
      },
      worstSpread: r.worstDelta === undefined ? undefined : near(r.targetDelta + r.worstDelta),
    };
  })
  .filter((input) => input.makerTouch.bestBid.gt(0) && input.hedgeReference.gt(0));
