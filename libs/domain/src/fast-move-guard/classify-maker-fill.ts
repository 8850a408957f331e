import type Big from 'big.js';
import { adverseFrom, reachesThresholdBetween } from './adverse-move';
import { type FastMoveGuardState, advanceTo } from './fast-move-guard-state';

export type GuardFillClass = 'after_trigger' | 'adverse';

export interface FillTiming {
  /** When the worker received the fill, on the clock of the observations. */
  timeMs: number;
  /** H when the fill arrived, if the worker has a newer one than its last observation. */
  hedgeReference?: Big;
  /**
   * Classing a fill after it came, with an H seen since (`hedgeReference`):
   * the H the worker held when the fill came. The move that ran a maker order
   * over can reach the worker just after the fill it caused, and is measured
   * from this price.
   */
  heldAtFill?: Big;
}

/**
 * guard_fill_class of a maker fill: `after_trigger` when it lands inside the
 * settle window of a trigger, `adverse` when H had moved against the order by
 * the threshold within the window with no trigger (the move outran the guard),
 * else null. Always null when the guard is off. Counts it in the stats.
 */
export const classifyMakerFill = (
  current: FastMoveGuardState,
  fill: FillTiming,
): { state: FastMoveGuardState; guardFillClass: GuardFillClass | null } => {
  if (current.settings.mode === 'off') {
    return { state: current, guardFillClass: null };
  }
  const state = advanceTo(current, fill.timeMs);
  const { settleMs, windowMs } = state.settings;
  const afterTrigger = state.recentTriggersMs.some(
    (t) => t <= fill.timeMs && fill.timeMs <= t + settleMs,
  );
  if (afterTrigger) {
    const stats = { ...state.stats, fills_after_trigger: state.stats.fills_after_trigger + 1 };
    return { state: { ...state, stats }, guardFillClass: 'after_trigger' };
  }
  const earlier = state.observations.filter((o) => o.timeMs <= fill.timeMs);
  if (fill.heldAtFill !== undefined) {
    earlier.push({ timeMs: fill.timeMs, price: fill.heldAtFill });
  }
  const latest = earlier[earlier.length - 1];
  const price = fill.hedgeReference ?? latest?.price;
  if (price === undefined) {
    return { state, guardFillClass: null };
  }
  const from = adverseFrom(state.makerLeg, earlier, { timeMs: fill.timeMs, price }, windowMs);
  if (!reachesThresholdBetween(state.makerLeg, from, price, state.thresholdBps)) {
    return { state, guardFillClass: null };
  }
  const stats = { ...state.stats, adverse_fills: state.stats.adverse_fills + 1 };
  return { state: { ...state, stats }, guardFillClass: 'adverse' };
};
