import type Big from 'big.js';
import type { QuoteMode } from '../trade/trade-terms';

export const FAST_MOVE_GUARD_MODES = ['shadow', 'on', 'off'] as const;
export type FastMoveGuardMode = (typeof FAST_MOVE_GUARD_MODES)[number];
export const isFastMoveGuardMode = (value: unknown): value is FastMoveGuardMode =>
  typeof value === 'string' && (FAST_MOVE_GUARD_MODES as readonly string[]).includes(value);

/** Limits of the create fields (interface: Fast-move guard, Limits). */
export const MAX_FAST_MOVE_GUARD_BPS = 1000;
export const MIN_DEFAULT_FAST_MOVE_GUARD_BPS = 10;
export const FAST_MOVE_WINDOW_MS = { min: 50, max: 5000, default: 250 } as const;
export const FAST_MOVE_SETTLE_MS = { min: 50, max: 10000, default: 500 } as const;
/** A hold may be extended by a book that stays fast, but not past this after its trigger. */
export const MAX_FAST_HOLD_MS = 3000;

/** 0 < x <= 1000, a finite JSON number. */
export const isValidFastMoveGuardBps = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isFinite(value) &&
  value > 0 &&
  value <= MAX_FAST_MOVE_GUARD_BPS;

const integerIn =
  (limits: { min: number; max: number }) =>
  (value: unknown): value is number =>
    Number.isInteger(value) && (value as number) >= limits.min && (value as number) <= limits.max;

export const isValidFastMoveWindowMs = integerIn(FAST_MOVE_WINDOW_MS);
export const isValidFastMoveSettleMs = integerIn(FAST_MOVE_SETTLE_MS);

/**
 * The guard exists for aggressive quotes, which rest inside the spread and can
 * be run over: they default to `shadow`. A default quote joins the touch and
 * defaults to `off`; a trader may still ask for the guard explicitly.
 */
export const defaultFastMoveGuardMode = (quoteMode: QuoteMode): FastMoveGuardMode =>
  quoteMode === 'aggressive' ? 'shadow' : 'off';

export interface FastMoveGuardSettings {
  mode: FastMoveGuardMode;
  /** Null: follow the resting order's quote cushion (see defaultFastMoveThresholdBps). */
  thresholdBps: number | null;
  windowMs: number;
  settleMs: number;
}

export interface FastMoveGuardRequest {
  quoteMode: QuoteMode;
  mode?: FastMoveGuardMode;
  thresholdBps?: number;
  windowMs?: number;
  settleMs?: number;
}

/** The trade's guard settings: what the trader gave, the defaults for the rest. */
export const resolveFastMoveGuardSettings = (
  request: FastMoveGuardRequest,
): FastMoveGuardSettings => ({
  mode: request.mode ?? defaultFastMoveGuardMode(request.quoteMode),
  thresholdBps: request.thresholdBps ?? null,
  windowMs: request.windowMs ?? FAST_MOVE_WINDOW_MS.default,
  settleMs: request.settleMs ?? FAST_MOVE_SETTLE_MS.default,
});

/**
 * The default threshold: the resting order's quote cushion, floored at 10 bps
 * (a tighter threshold would trigger on ordinary noise) and capped at the
 * field's 1000 bps limit. A ratio, not money, so a number is fine here.
 */
export const defaultFastMoveThresholdBps = (quoteCushionBps: Big): number =>
  thresholdOfCushion(quoteCushionBps.round(4).toNumber());

/** `defaultFastMoveThresholdBps` of a cushion already a number of bps (4 places at most). */
export const thresholdOfCushion = (cushionBps: number): number =>
  Math.min(MAX_FAST_MOVE_GUARD_BPS, Math.max(MIN_DEFAULT_FAST_MOVE_GUARD_BPS, cushionBps));
