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

/**
 * Statuses in which a trade is live: it holds budget, counts against the maker
 * cap and needs a worker. Every status that is not terminal.
 */
export const LIVE_TRADE_STATUSES: ReadonlySet<TradeStatus> = new Set(
  TRADE_STATUSES.filter((status) => !isTerminalTradeStatus(status)),
);

export const isLiveTradeStatus = (status: TradeStatus): boolean => LIVE_TRADE_STATUSES.has(status);

/**
 * The statuses of a set as a list in the order of TRADE_STATUSES, for what
 * takes a list (SQL `IN (...)`, `= ANY($1)`, TypeORM's `In(...)`).
 */
export const tradeStatusList = (set: ReadonlySet<TradeStatus>): TradeStatus[] =>
  TRADE_STATUSES.filter((status) => set.has(status));
