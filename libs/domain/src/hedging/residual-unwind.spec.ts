import { big, legRules } from '../testing/fixtures';
import { REDUCE_ONLY_MINIMUM } from '../market/market-rules';
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

  describe('what the maker venue spares a reduce-only order', () => {
    /** Aster's SOL: min 5 USD, minQty 0.01; reduce-only spared the notional (-4164). */
    const asterSol = {
      ...legRules({ tick: '0.01', lot: '0.01', minSize: '0.01', minNotional: '5' }),
      reduceOnlyMinimum: 'size_only' as const,
    };
    const paradexClosing = { ...paradexSol, reduceOnlyMinimum: 'size_only_when_closing' as const };
    const plan = (
      makerRules: typeof paradexSol,
      residual: string,
      makerPosition?: string,
      makerLeg: 'long' | 'short' = 'long',
    ) =>
      residualUnwindPlan({
        makerLeg,
        residual: big(residual),
        makerRules,
        makerTouch: touch,
        maxSlippage: big('0.001'),
        ...(makerPosition === undefined ? {} : { makerPosition: big(makerPosition) }),
      });

    it('Aster: a remainder below min_notional is unwound, one below minQty is not', () => {
      // 0.02 x 179.82 = 3.60 USD, below Aster's 5: reduce-only waives it.
      expect(plan(asterSol, '0.02')).toMatchObject({ kind: 'unwind', side: 'sell' });
      expect(plan(asterSol, '0.005').kind).toBe('below_minimum');
    });

    it('Paradex: below the minimum value only when the unwind is the whole position read', () => {
      // 0.23 x 179.82 = 41.36 USD, below Paradex's 100.
      expect(plan(paradexClosing, '0.23', '0.23')).toMatchObject({ kind: 'unwind', side: 'sell' });
      expect(plan(paradexClosing, '0.23', '-0.23', 'short')).toMatchObject({
        kind: 'unwind',
        side: 'buy',
      });
      // The wallet holds more there, the position is the other way, or it was not read: full minimum.
      expect(plan(paradexClosing, '0.23', '0.5').kind).toBe('below_minimum');
      expect(plan(paradexClosing, '0.23', '-0.23').kind).toBe('below_minimum');
      expect(plan(paradexClosing, '0.23').kind).toBe('below_minimum');
      // min_size is kept even so.
      expect(plan(paradexClosing, '0.05', '0.05').kind).toBe('below_minimum');
    });

    it('venues that document no exemption keep the full minimum', () => {
      expect(REDUCE_ONLY_MINIMUM).toEqual({
        hyperliquid: 'full',
        lighter: 'full',
        paradex: 'size_only_when_closing',
        extended: 'full',
        aster: 'size_only',
      });
      expect(plan({ ...paradexSol, reduceOnlyMinimum: 'full' }, '0.23', '0.23').kind).toBe(
        'below_minimum',
      );
    });
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
