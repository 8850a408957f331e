import { big } from '../testing/fixtures';
import type { MakerLeg } from '../trade/trade-terms';
import { classifyMakerFill } from './classify-maker-fill';
import {
  type FastMoveGuardState,
  type RestingQuote,
  finishFastMoveGuard,
  isQuotingHeld,
  startFastMoveGuard,
} from './fast-move-guard-state';
import { observeHedgeReference } from './observe-hedge-reference';
import {
  type FastMoveGuardMode,
  defaultFastMoveThresholdBps,
  resolveFastMoveGuardSettings,
} from './fast-move-settings';

/** An order resting with this quote cushion in bps. */
const cushioned = (bps: string): RestingQuote => ({
  defaultThresholdBps: defaultFastMoveThresholdBps(big(bps)),
});

const resting = cushioned('30');

const guard = (
  mode: FastMoveGuardMode,
  makerLeg: MakerLeg = 'long',
  thresholdBps: number | null = 20,
) => startFastMoveGuard({ mode, thresholdBps, windowMs: 250, settleMs: 500 }, makerLeg);

/** Feeds (time, H) pairs with an order resting; returns the state and every trigger. */
const feed = (
  state: FastMoveGuardState,
  points: Array<[number, string]>,
  quote: RestingQuote | null = resting,
) => {
  const triggers = [];
  for (const [timeMs, price] of points) {
    const result = observeHedgeReference(state, { timeMs, price: big(price) }, quote);
    state = result.state;
    if (result.trigger) {
      triggers.push({ timeMs, ...result.trigger });
    }
  }
  return { state, triggers };
};

describe('fast-move guard, on', () => {
  it('cancels the resting order and holds when H moves against it by the threshold in the window', () => {
    const { state, triggers } = feed(guard('on'), [
      [0, '100000'],
      [100, '99900'],
      [200, '99790'],
    ]);
    expect(triggers).toHaveLength(1);
    expect(triggers[0]).toEqual({
      timeMs: 200,
      action: 'cancel_and_hold',
      cancelRestingOrder: true,
      moveBps: 21,
      thresholdBps: 20,
      references: { from: big('100000'), to: big('99790'), windowMs: 250 },
      holdUntilMs: 700,
    });
    expect(isQuotingHeld(state, 699)).toBe(true);
    expect(isQuotingHeld(state, 700)).toBe(false);
    expect(state.stats).toMatchObject({
      triggers: 1,
      holds: 1,
      orders_canceled: 1,
      max_move_bps: 21,
    });
  });

  it('ignores a move spread over more than the window', () => {
    const { triggers, state } = feed(guard('on'), [
      [0, '100000'],
      [200, '99900'],
      [400, '99800'],
      [600, '99700'],
    ]);
    expect(triggers).toEqual([]);
    expect(state.stats.max_move_bps).toBe(10.02);
  });

  it('extends the hold while the book stays fast, then counts the hold time', () => {
    let { state } = feed(guard('on'), [
      [0, '100000'],
      [200, '99790'],
      [400, '99500'],
    ]);
    expect(isQuotingHeld(state, 899)).toBe(true);
    ({ state } = feed(state, [[1000, '99500']]));
    expect(isQuotingHeld(state, 1000)).toBe(false);
    expect(state.stats).toMatchObject({
      triggers: 1,
      holds: 1,
      hold_ms_total: 700,
      max_move_bps: 29.061,
    });
  });

  it('caps a hold at 3 s after its trigger while the book stays fast; a fresh move triggers again', () => {
    const falling: Array<[number, string]> = Array.from({ length: 21 }, (_, k) => [
      k * 200,
      `${100000 - 300 * k}`,
    ]);
    const upToCap = feed(guard('on'), falling.slice(0, 17)); // t = 0 .. 3200
    expect(upToCap.triggers.map((t) => t.timeMs)).toEqual([200]);
    expect(isQuotingHeld(upToCap.state, 3100)).toBe(false);
    const all = feed(guard('on'), falling);
    expect(all.triggers.map((t) => t.timeMs)).toEqual([200, 3400]);
    expect(all.state.stats).toMatchObject({ triggers: 2, holds: 2, hold_ms_total: 3000 });
    expect(finishFastMoveGuard(all.state, 3700).hold_ms_total).toBe(3300);
  });

  it('holds without canceling when no order rests', () => {
    const { triggers, state } = feed(
      guard('on'),
      [
        [0, '100000'],
        [100, '99790'],
      ],
      null,
    );
    expect(triggers[0]).toMatchObject({ action: 'cancel_and_hold', cancelRestingOrder: false });
    expect(state.stats).toMatchObject({ holds: 1, orders_canceled: 0 });
  });

  it('watches a rising H for a short maker', () => {
    const { triggers } = feed(guard('on', 'short'), [
      [0, '100000'],
      [100, '100210'],
    ]);
    expect(triggers[0]).toMatchObject({
      moveBps: 21,
      references: { from: big('100000'), to: big('100210'), windowMs: 250 },
    });
    expect(
      feed(guard('on', 'short'), [
        [0, '100000'],
        [100, '99000'],
      ]).triggers,
    ).toEqual([]);
  });

  it('ignores an observation older than the last one', () => {
    const { state, triggers } = feed(guard('on'), [
      [100, '100000'],
      [50, '90000'],
      [150, '100000'],
    ]);
    expect(triggers).toEqual([]);
    expect(state.stats.max_move_bps).toBe(0);
  });
});

describe('fast-move guard, shadow and off', () => {
  const points: Array<[number, string]> = [
    [0, '100000'],
    [100, '99900'],
    [200, '99790'],
    [400, '99500'],
  ];

  it('records a shadow trigger once per fast move, never holding or canceling', () => {
    const { state, triggers } = feed(guard('shadow'), points);
    expect(triggers).toHaveLength(1);
    expect(triggers[0]).toMatchObject({
      action: 'shadow',
      cancelRestingOrder: false,
      holdUntilMs: null,
    });
    expect(isQuotingHeld(state, 300)).toBe(false);
    expect(finishFastMoveGuard(state, 5000)).toEqual({
      mode: 'shadow',
      triggers: 1,
      holds: 0,
      hold_ms_total: 0,
      orders_canceled: 0,
      fills_after_trigger: 0,
      adverse_fills: 0,
      max_move_bps: 29.061,
    });
  });

  it('does nothing when off', () => {
    const { state, triggers } = feed(guard('off'), points);
    expect(triggers).toEqual([]);
    expect(classifyMakerFill(state, { timeMs: 450 }).guardFillClass).toBeNull();
    expect(finishFastMoveGuard(state, 5000)).toMatchObject({
      mode: 'off',
      triggers: 0,
      max_move_bps: 0,
    });
  });
});

describe('fill classes', () => {
  it('marks a fill inside the settle window of a trigger as after_trigger', () => {
    const { state } = feed(guard('shadow'), [
      [0, '100000'],
      [200, '99790'],
    ]);
    const inside = classifyMakerFill(state, { timeMs: 700 });
    expect(inside.guardFillClass).toBe('after_trigger');
    expect(inside.state.stats.fills_after_trigger).toBe(1);
    expect(classifyMakerFill(state, { timeMs: 701 }).guardFillClass).toBeNull();
  });

  it('marks a fill adverse when the move met the threshold with no trigger', () => {
    const { state } = feed(guard('shadow'), [
      [0, '100000'],
      [100, '99950'],
    ]);
    const adverse = classifyMakerFill(state, { timeMs: 150, hedgeReference: big('99780') });
    expect(adverse.guardFillClass).toBe('adverse');
    expect(adverse.state.stats.adverse_fills).toBe(1);
    expect(
      classifyMakerFill(state, { timeMs: 150, hedgeReference: big('99950') }).guardFillClass,
    ).toBeNull();
    expect(classifyMakerFill(state, { timeMs: 150 }).guardFillClass).toBeNull();
  });

  it('classes later a fill the move reached the worker after: measured from the H held at the fill', () => {
    // A quiet book: nothing seen within the window before the fill at 2000.
    const { state } = feed(guard('shadow'), [[0, '100000']]);
    expect(classifyMakerFill(state, { timeMs: 2000 }).guardFillClass).toBeNull();
    // The move that ran the order over arrives after it: 22 bps down.
    const late = { timeMs: 2000, hedgeReference: big('99780') };
    expect(classifyMakerFill(state, late).guardFillClass).toBeNull();
    const adverse = classifyMakerFill(state, { ...late, heldAtFill: big('100000') });
    expect(adverse.guardFillClass).toBe('adverse');
    expect(adverse.state.stats.adverse_fills).toBe(1);
  });
});

describe('default threshold', () => {
  it('follows the resting order quote cushion, floored at 10 bps', () => {
    const tight = feed(
      guard('on', 'long', null),
      [
        [0, '100000'],
        [100, '99880'],
      ],
      cushioned('5'),
    );
    expect(tight.triggers[0]).toMatchObject({ thresholdBps: 10, moveBps: 12 });
    const wide = feed(
      guard('on', 'long', null),
      [
        [0, '100000'],
        [100, '99880'],
      ],
      cushioned('50'),
    );
    expect(wide.triggers).toEqual([]);
    // With no order resting, the last threshold stays in force.
    const after = feed(wide.state, [[200, '99300']], null);
    expect(after.triggers[0]).toMatchObject({ thresholdBps: 50, moveBps: 70 });
  });

  it('resolves the trade settings with the documented defaults', () => {
    expect(resolveFastMoveGuardSettings({ quoteMode: 'aggressive' })).toEqual({
      mode: 'shadow',
      thresholdBps: null,
      windowMs: 250,
      settleMs: 500,
    });
    expect(resolveFastMoveGuardSettings({ quoteMode: 'default' }).mode).toBe('off');
    expect(
      resolveFastMoveGuardSettings({
        quoteMode: 'default',
        mode: 'on',
        thresholdBps: 15,
        windowMs: 100,
        settleMs: 2000,
      }),
    ).toEqual({ mode: 'on', thresholdBps: 15, windowMs: 100, settleMs: 2000 });
  });
});
