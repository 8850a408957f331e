import Big from 'big.js';
import fc from 'fast-check';
import { isMultipleOf } from '../decimal/decimal-math';
import { big, stepArb } from '../testing/fixtures';
import { averageFillPrice, slippageBps, spreadAchieved } from './execution-quality';
import { hedgeLimitPrice } from './hedge-price';

const tick = big('0.5');
const H = big('100000.5');

describe('hedge limit price', () => {
  it('bounds a buy at H * (1 + max_slippage), rounded down to the tick', () => {
    // 100100.5005 -> 100100.5
    expect(
      hedgeLimitPrice({
        side: 'buy',
        hedgeReference: H,
        maxSlippage: big('0.001'),
        tickSize: tick,
      }).toFixed(),
    ).toBe('100100.5');
  });

  it('bounds a sell at H * (1 - max_slippage), rounded up to the tick', () => {
    // 99900.4995 -> 99900.5
    expect(
      hedgeLimitPrice({
        side: 'sell',
        hedgeReference: H,
        maxSlippage: big('0.001'),
        tickSize: tick,
      }).toFixed(),
    ).toBe('99900.5');
  });

  it('is H itself with no slippage allowed', () => {
    for (const side of ['buy', 'sell'] as const) {
      expect(
        hedgeLimitPrice({
          side,
          hedgeReference: H,
          maxSlippage: big('0'),
          tickSize: tick,
        }).toFixed(),
      ).toBe('100000.5');
    }
  });

  it('keeps a sell limit positive when max_slippage is 100 % or more', () => {
    expect(
      hedgeLimitPrice({
        side: 'sell',
        hedgeReference: H,
        maxSlippage: big('1'),
        tickSize: tick,
      }).toFixed(),
    ).toBe('0.5');
    expect(
      hedgeLimitPrice({
        side: 'sell',
        hedgeReference: H,
        maxSlippage: big('1.5'),
        tickSize: tick,
      }).toFixed(),
    ).toBe('0.5');
  });

  it('property: never worse than the slippage bound, never less aggressive than H, on the tick', () => {
    fc.assert(
      fc.property(
        stepArb(-4, 1),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom('buy' as const, 'sell' as const),
        (step, hTicks, slippageMillionths, side) => {
          const hedgeReference = step.times(hTicks);
          const maxSlippage = new Big(slippageMillionths).div(1_000_000);
          const limit = hedgeLimitPrice({ side, hedgeReference, maxSlippage, tickSize: step });
          expect(isMultipleOf(limit, step)).toBe(true);
          if (side === 'buy') {
            const bound = hedgeReference.times(maxSlippage.plus(1));
            expect(limit.gte(hedgeReference) && limit.lte(bound)).toBe(true);
            expect(limit.plus(step).gt(bound)).toBe(true);
          } else {
            const bound = hedgeReference.times(new Big(1).minus(maxSlippage));
            expect(limit.lte(hedgeReference) && limit.gte(bound)).toBe(true);
            expect(limit.minus(step).lt(bound) || limit.eq(step)).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('execution quality', () => {
  it('measures slippage in bps of H, positive when worse', () => {
    expect(slippageBps('buy', big('100'), big('100.05')).toFixed()).toBe('5');
    expect(slippageBps('sell', big('100'), big('100.05')).toFixed()).toBe('-5');
    expect(slippageBps('sell', big('3'), big('2.9999')).toFixed()).toBe('0.333333');
  });

  it('averages fill prices by size', () => {
    expect(
      averageFillPrice([
        { price: big('100'), size: big('1') },
        { price: big('101'), size: big('3') },
      ])?.toFixed(),
    ).toBe('100.75');
    expect(
      averageFillPrice([
        { price: big('1'), size: big('1') },
        { price: big('2'), size: big('2') },
      ])?.toFixed(),
    ).toBe('1.666666666667');
    expect(averageFillPrice([])).toBeNull();
  });

  it('reports the spread achieved in the trade unit, against the price the hedge got', () => {
    const pair = {
      makerLeg: 'long' as const,
      makerPrice: big('99990'),
      hedgePrice: big('100000.5'),
      coarserTickSize: tick,
    };
    expect(spreadAchieved({ ...pair, spreadType: 'absolute' }).toFixed()).toBe('10.5');
    expect(spreadAchieved({ ...pair, spreadType: 'bps' }).toFixed()).toBe('1.04999475');
    expect(spreadAchieved({ ...pair, spreadType: 'percentage' }).toFixed()).toBe('0.0104999475');
    expect(spreadAchieved({ ...pair, spreadType: 'ticks' }).toFixed()).toBe('21');
    expect(spreadAchieved({ ...pair, makerLeg: 'short', spreadType: 'absolute' }).toFixed()).toBe(
      '-10.5',
    );
  });
});
