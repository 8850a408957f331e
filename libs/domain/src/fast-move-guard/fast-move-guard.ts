import Big from 'big.js';
import type { MakerLeg } from '../trade/trade-terms';
import { type HedgeReferenceObservation, adverseMove } from './adverse-move';
import {
  type FastMoveGuardMode,
  type FastMoveGuardSettings,
  MAX_FAST_HOLD_MS,
  MIN_DEFAULT_FAST_MOVE_GUARD_BPS,
  defaultFastMoveThresholdBps,
} from './fast-move-settings';

/**
 * fast_move_guard_stats as written on the trade (decisions 6). Field names
 * are the wire names so the stored object is exactly this one.
 */
export interface FastMoveGuardStats {
  mode: FastMoveGuardMode;
  triggers: number;
  holds: number;
  hold_ms_total: number;
  orders_canceled: number;
  fills_after_trigger: number;
  adverse_fills: number;
  max_move_bps: number;
}

/**
 * One trigger and the fast book after it. In `on` mode it is a hold (no
 * quoting until `untilMs`); in `shadow` mode the same episode is tracked
 * without holding, so a move that stays fast counts as one trigger, not one
 * per tick, and shadow figures compare one to one with `on`.
 */
interface FastMoveEpisode {
  triggeredMs: number;
  untilMs: number;
  holding: boolean;
}

export interface FastMoveGuardState {
  readonly settings: FastMoveGuardSettings;
  readonly makerLeg: MakerLeg;
  readonly observations: readonly HedgeReferenceObservation[];
  readonly episode: FastMoveEpisode | null;
  /** Trigger times still able to classify a fill as after_trigger. */
  readonly recentTriggersMs: readonly number[];
  /** The last threshold in force, for when no order rests. */
  readonly thresholdBps: number;
  readonly stats: FastMoveGuardStats;
}

/** The resting maker order the guard protects. */
export interface RestingQuote {
  /** Its quote cushion when placed (quoteCushionBps); the default threshold follows it. */
  quoteCushionBps: Big;
}

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

export type GuardFillClass = 'after_trigger' | 'adverse';

export const startFastMoveGuard = (
  settings: FastMoveGuardSettings,
  makerLeg: MakerLeg,
): FastMoveGuardState => ({
  settings,
  makerLeg,
  observations: [],
  episode: null,
  recentTriggersMs: [],
  thresholdBps: settings.thresholdBps ?? MIN_DEFAULT_FAST_MOVE_GUARD_BPS,
  stats: {
    mode: settings.mode,
    triggers: 0,
    holds: 0,
    hold_ms_total: 0,
    orders_canceled: 0,
    fills_after_trigger: 0,
    adverse_fills: 0,
    max_move_bps: 0,
  },
});

/** Ends an episode whose time is up, adding its hold to hold_ms_total. */
const advanceTo = (state: FastMoveGuardState, nowMs: number): FastMoveGuardState => {
  const { episode } = state;
  if (episode === null || nowMs < episode.untilMs) return state;
  return { ...state, episode: null, stats: withHoldEnded(state.stats, episode, episode.untilMs) };
};

const withHoldEnded = (
  stats: FastMoveGuardStats,
  episode: FastMoveEpisode,
  endMs: number,
): FastMoveGuardStats =>
  episode.holding
    ? { ...stats, hold_ms_total: stats.hold_ms_total + Math.max(0, endMs - episode.triggeredMs) }
    : stats;

/** Observations and triggers old enough to matter to no move and no fill are dropped. */
const retentionStart = (state: FastMoveGuardState, nowMs: number): number =>
  nowMs - 2 * Math.max(state.settings.windowMs, state.settings.settleMs);

const lastObservationMs = (state: FastMoveGuardState): number | null =>
  state.observations.length === 0 ? null : state.observations[state.observations.length - 1].timeMs;

const moveAsNumber = (bps: Big): number => bps.round(4, Big.roundHalfEven).toNumber();

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
    settings.thresholdBps ??
    (resting ? defaultFastMoveThresholdBps(resting.quoteCushionBps) : advanced.thresholdBps);
  const move = adverseMove(
    advanced.makerLeg,
    advanced.observations,
    observation,
    settings.windowMs,
  );
  const moveBps = moveAsNumber(move.bps);
  const state: FastMoveGuardState = {
    ...advanced,
    observations: [...advanced.observations.filter((o) => o.timeMs >= keepFrom), observation],
    recentTriggersMs: advanced.recentTriggersMs.filter((t) => t >= keepFrom),
    thresholdBps,
    stats: { ...advanced.stats, max_move_bps: Math.max(advanced.stats.max_move_bps, moveBps) },
  };
  if (move.bps.lt(String(thresholdBps))) return { state, trigger: null };

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
      references: { from: move.from, to: move.to, windowMs: settings.windowMs },
      holdUntilMs: holding ? untilMs : null,
    },
  };
};

/** True while an `on` guard holds quoting: no maker order may be placed. */
export const isQuotingHeld = (state: FastMoveGuardState, nowMs: number): boolean =>
  state.episode !== null && state.episode.holding && nowMs < state.episode.untilMs;

export interface FillTiming {
  /** When the worker received the fill, on the clock of the observations. */
  timeMs: number;
  /** H when the fill arrived, if the worker has a newer one than its last observation. */
  hedgeReference?: Big;
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
  if (current.settings.mode === 'off') return { state: current, guardFillClass: null };
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
  const latest = earlier[earlier.length - 1];
  const price = fill.hedgeReference ?? latest?.price;
  if (price === undefined) return { state, guardFillClass: null };
  const move = adverseMove(state.makerLeg, earlier, { timeMs: fill.timeMs, price }, windowMs);
  if (move.bps.lt(String(state.thresholdBps))) return { state, guardFillClass: null };
  const stats = { ...state.stats, adverse_fills: state.stats.adverse_fills + 1 };
  return { state: { ...state, stats }, guardFillClass: 'adverse' };
};

/** The stats to write on the trade when it ends; a hold still running ends now. */
export const finishFastMoveGuard = (
  state: FastMoveGuardState,
  endMs: number,
): FastMoveGuardStats => {
  const { episode } = state;
  if (episode === null) return state.stats;
  return withHoldEnded(state.stats, episode, Math.min(endMs, episode.untilMs));
};
