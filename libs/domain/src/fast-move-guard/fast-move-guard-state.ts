import type { MakerLeg } from '../trade/trade-terms';
import type { HedgeReferenceObservation } from './adverse-move';
import {
  type FastMoveGuardMode,
  type FastMoveGuardSettings,
  MIN_DEFAULT_FAST_MOVE_GUARD_BPS,
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
export interface FastMoveEpisode {
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
  /**
   * When the last episode ended. Moves are measured only from then on: the
   * order placed after a hold can be run over only by a move after it rested,
   * and a book still fast when a capped hold ends must move by the threshold
   * again before it triggers again (else the 3 s cap would mean nothing).
   */
  readonly movesFromMs: number | null;
  /** The last threshold in force, for when no order rests. */
  readonly thresholdBps: number;
  readonly stats: FastMoveGuardStats;
}

/** The resting maker order the guard protects. */
export interface RestingQuote {
  /**
   * The default threshold its quote cushion gives (`cushionThresholdBps`,
   * which is `defaultFastMoveThresholdBps` of `quoteCushionBps`).
   */
  defaultThresholdBps: number;
}

export const startFastMoveGuard = (
  settings: FastMoveGuardSettings,
  makerLeg: MakerLeg,
): FastMoveGuardState => ({
  settings,
  makerLeg,
  observations: [],
  episode: null,
  recentTriggersMs: [],
  movesFromMs: null,
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
export const advanceTo = (state: FastMoveGuardState, nowMs: number): FastMoveGuardState => {
  const { episode } = state;
  if (episode === null || nowMs < episode.untilMs) {
    return state;
  }
  return {
    ...state,
    episode: null,
    movesFromMs: episode.untilMs,
    stats: withHoldEnded(state.stats, episode, episode.untilMs),
  };
};

const withHoldEnded = (
  stats: FastMoveGuardStats,
  episode: FastMoveEpisode,
  endMs: number,
): FastMoveGuardStats =>
  episode.holding
    ? { ...stats, hold_ms_total: stats.hold_ms_total + Math.max(0, endMs - episode.triggeredMs) }
    : stats;

/** True while an `on` guard holds quoting: no maker order may be placed. */
export const isQuotingHeld = (state: FastMoveGuardState, nowMs: number): boolean =>
  state.episode !== null && state.episode.holding && nowMs < state.episode.untilMs;

/** The stats to write on the trade when it ends; a hold still running ends now. */
export const finishFastMoveGuard = (
  state: FastMoveGuardState,
  endMs: number,
): FastMoveGuardStats => {
  const { episode } = state;
  if (episode === null) {
    return state.stats;
  }
  return withHoldEnded(state.stats, episode, Math.min(endMs, episode.untilMs));
};
