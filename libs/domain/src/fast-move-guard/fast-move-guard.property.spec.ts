import Big from 'big.js';
import fc from 'fast-check';
import { divide } from '../decimal/decimal-math';
import type { MakerLeg } from '../trade/trade-terms';
import { adverseMove, adverseMoveBps, reachesThreshold } from './adverse-move';
import {
  type FastMoveGuardState,
  isQuotingHeld,
  startFastMoveGuard,
} from './fast-move-guard-state';
import {
  MAX_FAST_HOLD_MS,
  type FastMoveGuardMode,
  defaultFastMoveThresholdBps,
} from './fast-move-settings';
import { observeHedgeReference } from './observe-hedge-reference';

const scenario = fc.record({
  makerLeg: fc.constantFrom<MakerLeg>('long', 'short'),
  thresholdBps: fc.integer({ min: 5, max: 60 }),
  windowMs: fc.integer({ min: 50, max: 1000 }),
  settleMs: fc.integer({ min: 50, max: 5000 }),
  // Each step: a time gap and a move of H in bps, mostly small, sometimes a jump.
  steps: fc.array(
    fc.record({
      gapMs: fc.integer({ min: 1, max: 400 }),
      moveBps: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -80, max: 80 })),
      resting: fc.boolean(),
    }),
    { minLength: 20, maxLength: 120 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const run = (s: Scenario, mode: FastMoveGuardMode) => {
  let state: FastMoveGuardState = startFastMoveGuard(
    { mode, thresholdBps: s.thresholdBps, windowMs: s.windowMs, settleMs: s.settleMs },
    s.makerLeg,
  );
  let price = new Big(100000);
  let timeMs = 0;
  const triggers: number[] = [];
  const heldAtCap: boolean[] = [];
  for (const step of s.steps) {
    timeMs += step.gapMs;
    price = price
      .times(10000 + step.moveBps)
      .div(10000)
      .round(1);
    const result = observeHedgeReference(
      state,
      { timeMs, price },
      step.resting ? { defaultThresholdBps: defaultFastMoveThresholdBps(new Big(20)) } : null,
    );
    state = result.state;
    if (result.trigger) {
      triggers.push(timeMs);
    }
    const lastTrigger = triggers[triggers.length - 1];
    if (lastTrigger !== undefined) {
      heldAtCap.push(isQuotingHeld(state, lastTrigger + Math.max(s.settleMs, MAX_FAST_HOLD_MS)));
    }
  }
  return { state, triggers, heldAtCap };
};

describe('fast-move guard properties', () => {
  it('shadow triggers exactly when `on` would, and never holds or cancels', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const on = run(s, 'on');
        const shadow = run(s, 'shadow');
        expect(shadow.triggers).toEqual(on.triggers);
        expect(shadow.state.stats).toMatchObject({
          holds: 0,
          hold_ms_total: 0,
          orders_canceled: 0,
        });
        expect(shadow.state.stats.triggers).toBe(on.state.stats.triggers);
        expect(shadow.state.stats.max_move_bps).toBe(on.state.stats.max_move_bps);
      }),
      { numRuns: 300 },
    );
  });

  it('a hold never outlasts max(settle_ms, 3 s) after its trigger', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { state, triggers, heldAtCap } = run(s, 'on');
        const cap = Math.max(s.settleMs, MAX_FAST_HOLD_MS);
        expect(heldAtCap.every((held) => !held)).toBe(true);
        expect(state.stats.holds).toBe(triggers.length);
        expect(state.stats.hold_ms_total).toBeLessThanOrEqual(state.stats.holds * cap);
        for (let i = 1; i < triggers.length; i += 1) {
          expect(triggers[i] - triggers[i - 1]).toBeGreaterThanOrEqual(s.settleMs);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does nothing at all when off', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const off = run(s, 'off');
        expect(off.triggers).toEqual([]);
        expect(off.state.stats.max_move_bps).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('generates scenarios that trigger, so the properties above are not vacuous', () => {
    const triggered = fc
      .sample(scenario, { numRuns: 200, seed: 11 })
      .filter((s) => run(s, 'on').triggers.length > 1).length;
    expect(triggered).toBeGreaterThan(40);
  });

  it('property: the move is measured in bps of its start, the threshold compared exactly', () => {
    const priceArb = fc
      .tuple(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 0, max: 6 }))
      .map(([digits, scale]) => new Big(digits).times(`1e-${scale}`));
    fc.assert(
      fc.property(
        fc.constantFrom<MakerLeg>('long', 'short'),
        fc.array(priceArb, { minLength: 1, maxLength: 6 }),
        priceArb,
        fc.integer({ min: 0, max: 2_000_000 }).map((n) => n / 10_000),
        (makerLeg, earlier, now, thresholdBps) => {
          const observations = earlier.map((price, i) => ({ timeMs: i, price }));
          const move = adverseMove(makerLeg, observations, { timeMs: 10, price: now }, 100);
          const exact = divide(move.against.times(10000), move.from);
          expect(move.against.gte(0)).toBe(true);
          expect(reachesThreshold(move, thresholdBps)).toBe(exact.gte(thresholdBps));
          expect(adverseMoveBps(move)).toBe(exact.round(4, Big.roundHalfEven).toNumber());
        },
      ),
    );
  });
});
