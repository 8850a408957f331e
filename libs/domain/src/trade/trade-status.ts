export const TRADE_STATUSES = [
  'pending',
  'validating',
  'active',
  'paused',
  'recovering',
  'completed',
  'canceled',
  'rejected',
  'failed',
] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

export const isTradeStatus = (value: unknown): value is TradeStatus =>
  typeof value === 'string' && (TRADE_STATUSES as readonly string[]).includes(value);

/** Nothing leaves these; `completed_at` is set on entering any of them (decisions 3). */
export const TERMINAL_TRADE_STATUSES: ReadonlySet<TradeStatus> = new Set([
  'completed',
  'canceled',
  'rejected',
  'failed',
]);

export const isTerminalTradeStatus = (status: TradeStatus): boolean =>
  TERMINAL_TRADE_STATUSES.has(status);

/**
 * Statuses PATCH may amend: the interface's pending, active and paused, and
 * (decisions 4) validating and recovering, passing states a client cannot see
 * reliably; an amendment stored then applies when quoting starts or resumes.
 */
export const AMENDABLE_TRADE_STATUSES: ReadonlySet<TradeStatus> = new Set([
  'pending',
  'validating',
  'active',
  'paused',
  'recovering',
]);

export const isAmendableTradeStatus = (status: TradeStatus): boolean =>
  AMENDABLE_TRADE_STATUSES.has(status);

/**
 * Statuses whose trade a worker owns: execution has started, so DELETE answers
 * 202 `cancel_sent` and the worker cancels orders before the trade is canceled.
 * A `pending` trade is canceled directly (200 `canceled`).
 */
export const EXECUTING_TRADE_STATUSES: ReadonlySet<TradeStatus> = new Set([
  'validating',
  'active',
  'paused',
  'recovering',
]);

export const isExecutingTradeStatus = (status: TradeStatus): boolean =>
  EXECUTING_TRADE_STATUSES.has(status);
