import { isTerminalTradeStatus, type TradeStatus } from './trade-status';

/** The status changes pushed over the WebSocket API (interface: Lifecycle events). */
export const TRADE_LIFECYCLE_EVENTS = [
  'trade.started',
  'trade.completed',
  'trade.failed',
  'trade.canceled',
  'trade.paused',
  'trade.resumed',
] as const;
export type TradeLifecycleEvent = (typeof TRADE_LIFECYCLE_EVENTS)[number];

/**
 * Every legal status change (decisions section 3) and the lifecycle event it
 * pushes (null: none). Anything not in this table is an illegal transition.
 *
 * Choices where section 3 is silent:
 * - validating -> rejected pushes `trade.failed`: the WebSocket has no
 *   `trade.rejected` event and the message's `status` field says `rejected`.
 * - paused -> failed and recovering -> failed exist because section 2 says a
 *   hedge is never abandoned and a hedge that times out fails the trade: the
 *   hedge in flight when a trade pauses, or the one a recovering worker
 *   re-sends, can time out in those statuses.
 * - active|paused -> recovering pushes nothing: clients see no change until
 *   recovery ends. recovering -> active pushes `trade.resumed` (quoting was
 *   halted while the new worker reconciled), recovering -> paused pushes
 *   `trade.paused`, so a client always learns where recovery left the trade.
 * - No self-transitions: an amendment keeps the status and is not a transition.
 */
const TRANSITIONS: Readonly<
  Record<TradeStatus, Partial<Record<TradeStatus, TradeLifecycleEvent | null>>>
> = {
  pending: { validating: null, canceled: 'trade.canceled' },
  validating: { active: 'trade.started', rejected: 'trade.failed', canceled: 'trade.canceled' },
  active: {
    completed: 'trade.completed',
    failed: 'trade.failed',
    paused: 'trade.paused',
    recovering: null,
    canceled: 'trade.canceled',
  },
  paused: {
    active: 'trade.resumed',
    recovering: null,
    failed: 'trade.failed',
    canceled: 'trade.canceled',
  },
  recovering: {
    active: 'trade.resumed',
    paused: 'trade.paused',
    failed: 'trade.failed',
    canceled: 'trade.canceled',
  },
  completed: {},
  canceled: {},
  rejected: {},
  failed: {},
};

export class IllegalTradeTransitionError extends Error {
  readonly code = 'illegal_trade_transition';

  constructor(
    readonly from: TradeStatus,
    readonly to: TradeStatus,
  ) {
    super(`a trade cannot move from ${from} to ${to}`);
    this.name = 'IllegalTradeTransitionError';
  }
}

export interface TradeTransition {
  from: TradeStatus;
  to: TradeStatus;
  /** The lifecycle event to push, or null when the change is not shown to clients. */
  event: TradeLifecycleEvent | null;
  /** True when `completed_at` must be set (every terminal status). */
  setsCompletedAt: boolean;
}

export const canTransition = (from: TradeStatus, to: TradeStatus): boolean =>
  Object.prototype.hasOwnProperty.call(TRANSITIONS[from], to);

/** The one way to change a trade's status. Throws IllegalTradeTransitionError. */
export const transitionTrade = (from: TradeStatus, to: TradeStatus): TradeTransition => {
  const targets = TRANSITIONS[from];
  if (!canTransition(from, to)) {
    throw new IllegalTradeTransitionError(from, to);
  }
  const event = targets[to] ?? null;
  return { from, to, event, setsCompletedAt: isTerminalTradeStatus(to) };
};

/** The statuses a trade in `from` may move to, for callers that build guarded SQL updates. */
export const allowedNextStatuses = (from: TradeStatus): readonly TradeStatus[] =>
  Object.keys(TRANSITIONS[from]) as TradeStatus[];

/** The statuses that may move to `to` (e.g. `WHERE status IN (...)` for a compare-and-set). */
export const allowedPreviousStatuses = (to: TradeStatus): readonly TradeStatus[] =>
  (Object.keys(TRANSITIONS) as TradeStatus[]).filter((from) => canTransition(from, to));
