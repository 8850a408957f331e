import { big, legRules } from '../testing/fixtures';
import { residualUnwindPlan } from './residual-unwind';

/** Hyperliquid's SOL: tick 0.01, lot 0.01, min 10 USD. */
const hyperliquidSol = legRules({ tick: '0.01', lot: '0.01', minSize: '0.01', minNotional: '10' });
/** Paradex's SOL: min 100 USD. */
const paradexSol = legRules({ tick: '0.001', lot: '0.01', minSize: '0.1', minNotional: '100' });
const touch = { bestBid: big('180.00'), bestAsk: big('180.02') };

describe('residual unwind plan (decisions 2)', () => {
  it('nothing to do without a remainder', () => {
    expect(
      residualUnwindPlan({
        makerLeg: 'long',
        residual: big('0'),
        makerRules: hyperliquidSol,
        makerTouch: touch,
        maxSlippage: big('0.001'),
      }),
    ).toEqual({ kind: 'none' });
  });

  it("sells a long maker's remainder into the bid, less the slippage rounded up to the tick", () => {
    const plan = residualUnwindPlan({
      makerLeg: 'long',
      residual: big('0.23'),
      makerRules: hyperliquidSol,
      makerTouch: touch,
      maxSlippage: big('0.001'),
    });
    // 180 x 0.999 = 179.82; 0.23 x 179.82 = 41.36 USD, above hyperliquid's 10.
    expect(plan).toMatchObject({ kind: 'unwind', side: 'sell' });
    if (plan.kind !== 'unwind') {
      throw new Error('no unwind');
    }
    expect(plan.size.toFixed()).toBe('0.23');
    expect(plan.limit.toFixed()).toBe('179.82');
  });

  it("buys a short maker's remainder from the ask, plus the slippage rounded down to the tick", () => {
    const plan = residualUnwindPlan({
      makerLeg: 'short',
      residual: big('0.23'),
      makerRules: hyperliquidSol,
      makerTouch: touch,
      maxSlippage: big('0.0015'),
    });
    // 180.02 x 1.0015 = 180.29003 -> 180.29
    expect(plan.kind === 'unwind' && [plan.side, plan.limit.toFixed()]).toEqual(['buy', '180.29']);
  });

  it("names a remainder below the maker venue's minimum at the limit: no order can take it", () => {
    const plan = residualUnwindPlan({
      makerLeg: 'long',
      residual: big('0.23'),
      makerRules: paradexSol,
      makerTouch: touch,
      maxSlippage: big('0.001'),
    });
    expect(plan.kind).toBe('below_minimum');
    expect(plan.kind === 'below_minimum' && plan.size.toFixed()).toBe('0.23');
    // At the touch itself 0.0556 x 180 = 10.008 would pass; at the limit 10 x 0.999 does not.
    expect(
      residualUnwindPlan({
        makerLeg: 'long',
        residual: big('0.0556'),
        makerRules: legRules({ tick: '0.01', lot: '0.0001', minSize: '0.0001', minNotional: '10' }),
        makerTouch: touch,
        maxSlippage: big('0.001'),
      }).kind,
    ).toBe('below_minimum');
  });

  it('names the remainder when the maker book gives no price (unknown, crossed or locked)', () => {
    for (const makerTouch of [null, { bestBid: big('180.02'), bestAsk: big('180.02') }]) {
      expect(
        residualUnwindPlan({
          makerLeg: 'long',
          residual: big('0.23'),
          makerRules: hyperliquidSol,
          makerTouch,
          maxSlippage: big('0.001'),
        }),
      ).toMatchObject({ kind: 'no_price', side: 'sell' });
    }
  });
});
