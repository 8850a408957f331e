import type Big from 'big.js';
import {
  type HedgeReferenceObservation,
  adverseFrom,
  adverseMoveBpsBetween,
  reachesThresholdBetween,
} from './adverse-move';
import { type FastMoveGuardState, type RestingQuote, advanceTo } from './fast-move-guard-state';
import { MAX_FAST_HOLD_MS } from './fast-move-settings';

export interface FastMoveTrigger {
  /** `cancel_and_hold` in `on` mode, `shadow` in shadow mode (the fast_move_guard event's action). */
  action: 'cancel_and_hold' | 'shadow';
  /** True when the worker must cancel the resting maker order now. */
  cancelRestingOrder: boolean;
  moveBps: number;
  thresholdBps: number;
  references: { from: Big; to: Big; windowMs: number };
  /** Quoting resumes at this time unless the book stays fast (`on` mode only). */
  holdUntilMs: number | null;
}

/** Observations and triggers old enough to matter to no move and no fill are dropped. */
const retentionStart = (state: FastMoveGuardState, nowMs: number): number =>
  nowMs - 2 * Math.max(state.settings.windowMs, state.settings.settleMs);

const lastObservationMs = (state: FastMoveGuardState): number | null =>
  state.observations.length === 0 ? null : state.observations[state.observations.length - 1].timeMs;

export interface ObserveResult {
  state: FastMoveGuardState;
  trigger: FastMoveTrigger | null;
}

/**
 * A new hedge reference. Triggers when H has moved against the resting order
 * by the threshold within the window, unless an episode is already running,
 * which the fast book then extends: the hold lasts until H has been calm for
 * settle_ms, but a book that stays fast holds it at most 3 s after the trigger
 * (or settle_ms, when that is longer). An observation older than the last one
 * is stale market data and is ignored.
 */
export const observeHedgeReference = (
  current: FastMoveGuardState,
  observation: HedgeReferenceObservation,
  resting: RestingQuote | null,
): ObserveResult => {
  const last = lastObservationMs(current);
  if (current.settings.mode === 'off' || (last !== null && observation.timeMs < last)) {
    return { state: current, trigger: null };
  }
  const { settings } = current;
  const advanced = advanceTo(current, observation.timeMs);
  const keepFrom = retentionStart(advanced, observation.timeMs);
  const thresholdBps =
    settings.thresholdBps ?? (resting ? resting.defaultThresholdBps : advanced.thresholdBps);
  const since = advanced.movesFromMs ?? Number.NEGATIVE_INFINITY;
  const sinceCalm = advanced.observations.filter((o) => o.timeMs >= since);
  const from = adverseFrom(advanced.makerLeg, sinceCalm, observation, settings.windowMs);
  const moveBps = adverseMoveBpsBetween(advanced.makerLeg, from, observation.price);
  const state: FastMoveGuardState = {
    ...advanced,
    observations: [...advanced.observations.filter((o) => o.timeMs >= keepFrom), observation],
    recentTriggersMs: advanced.recentTriggersMs.filter((t) => t >= keepFrom),
    thresholdBps,
    stats: { ...advanced.stats, max_move_bps: Math.max(advanced.stats.max_move_bps, moveBps) },
  };
  if (!reachesThresholdBetween(advanced.makerLeg, from, observation.price, thresholdBps)) {
    return { state, trigger: null };
  }

  const t = observation.timeMs;
  if (state.episode !== null) {
    const cap = state.episode.triggeredMs + Math.max(settings.settleMs, MAX_FAST_HOLD_MS);
    const untilMs = Math.max(state.episode.untilMs, Math.min(t + settings.settleMs, cap));
    return { state: { ...state, episode: { ...state.episode, untilMs } }, trigger: null };
  }
  const holding = settings.mode === 'on';
  const cancelRestingOrder = holding && resting !== null;
  const untilMs = t + settings.settleMs;
  return {
    state: {
      ...state,
      episode: { triggeredMs: t, untilMs, holding },
      recentTriggersMs: [...state.recentTriggersMs, t],
      stats: {
        ...state.stats,
        triggers: state.stats.triggers + 1,
        holds: state.stats.holds + (holding ? 1 : 0),
        orders_canceled: state.stats.orders_canceled + (cancelRestingOrder ? 1 : 0),
      },
    },
    trigger: {
      action: holding ? 'cancel_and_hold' : 'shadow',
      cancelRestingOrder,
      moveBps,
      thresholdBps,
      references: { from, to: observation.price, windowMs: settings.windowMs },
      holdUntilMs: holding ? untilMs : null,
    },
  };
};
