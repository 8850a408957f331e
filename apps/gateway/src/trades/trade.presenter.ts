import Big from 'big.js';
import { formatDecimal, type VenueMode } from '@sts/domain';
import type { PagedLogEntry, TradeEntity } from '@sts/persistence';
import type { TradeCostsView } from './costs/trade-costs.presenter';

/** The Trade resource of interface.md: decimals as strings, timestamps ISO 8601 UTC. */
export interface TradeView {
  trade_id: string;
  user_id: string;
  market: string;
  long_exchange: string;
  long_wallet: string;
  short_exchange: string;
  short_wallet: string;
  target_spread: string;
  spread_condition: string;
  target_size: string;
  filled_size: string;
  execution_type: string;
  maker_leg: string;
  max_slippage: string;
  status: string;
  rate_budget: number;
  hedge_rate_budget?: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  size_type: string;
  spread_type: string;
  failure_reason: string;
  /** Maker fills never hedged (below the hedge venue's lot or minimums), base units; "0": none. */
  residual_unhedged: string;
  /** Of those, what the reduce-only unwind on the maker venue took back. */
  residual_unwound: string;
  fast_move_guard_stats: Record<string, unknown> | null;
  quote_mode?: string;
  worst_spread?: string;
  fast_move_guard?: string;
  fast_move_guard_bps?: number;
  fast_move_window_ms?: number;
  fast_move_settle_ms?: number;
  /** The mode each leg's venue runs in on this deployment (issue 34). */
  long_mode: VenueMode;
  short_mode: VenueMode;
  /** What the venues' fills came to, from the execution log (issue 34). */
  costs: TradeCostsView;
}

const decimal = (value: string): string => formatDecimal(new Big(value));

/** What presentTrade reads of a trade (reads select these columns only). */
export const PRESENTED_TRADE_FIELDS = [
  'id',
  'userId',
  'market',
  'longExchange',
  'longWallet',
  'shortExchange',
  'shortWallet',
  'targetSpread',
  'spreadCondition',
  'targetSize',
  'filledSize',
  'executionType',
  'makerLeg',
  'maxSlippage',
  'status',
  'rateBudget',
  'hedgeRateBudget',
  'createdAt',
  'updatedAt',
  'completedAt',
  'sizeType',
  'spreadType',
  'failureReason',
  'residualUnhedged',
  'residualUnwound',
  'fastMoveGuardStats',
  'quoteMode',
  'worstSpread',
  'fastMoveGuard',
  'fastMoveGuardBps',
  'fastMoveWindowMs',
  'fastMoveSettleMs',
  // Not shown: how long the execution log is (0: empty), so costs skip reading an empty one.
  'lastSequence',
] as const satisfies ReadonlyArray<keyof TradeEntity>;

export type PresentedTrade = Pick<TradeEntity, (typeof PRESENTED_TRADE_FIELDS)[number]>;

/** A venue's mode on this deployment (the registry's). */
export type ModeOf = (exchange: string) => VenueMode;

export function presentTrade(
  trade: PresentedTrade,
  modeOf: ModeOf,
  costs: TradeCostsView,
): TradeView {
  return {
    trade_id: trade.id,
    user_id: trade.userId,
    market: trade.market,
    long_exchange: trade.longExchange,
    long_wallet: trade.longWallet,
    short_exchange: trade.shortExchange,
    short_wallet: trade.shortWallet,
    target_spread: decimal(trade.targetSpread),
    spread_condition: trade.spreadCondition,
    target_size: decimal(trade.targetSize),
    filled_size: decimal(trade.filledSize),
    execution_type: trade.executionType,
    maker_leg: trade.makerLeg,
    max_slippage: decimal(trade.maxSlippage),
    status: trade.status,
    rate_budget: trade.rateBudget,
    ...(trade.hedgeRateBudget !== null ? { hedge_rate_budget: trade.hedgeRateBudget } : {}),
    created_at: trade.createdAt.toISOString(),
    updated_at: trade.updatedAt.toISOString(),
    completed_at: trade.completedAt ? trade.completedAt.toISOString() : null,
    size_type: trade.sizeType,
    spread_type: trade.spreadType,
    failure_reason: trade.failureReason,
    residual_unhedged: decimal(trade.residualUnhedged),
    residual_unwound: decimal(trade.residualUnwound),
    fast_move_guard_stats: trade.fastMoveGuardStats,
    ...(trade.quoteMode && trade.quoteMode !== 'default' ? { quote_mode: trade.quoteMode } : {}),
    ...(trade.worstSpread !== null ? { worst_spread: decimal(trade.worstSpread) } : {}),
    ...(trade.fastMoveGuard !== null ? { fast_move_guard: trade.fastMoveGuard } : {}),
    ...(trade.fastMoveGuardBps !== null
      ? { fast_move_guard_bps: Number(trade.fastMoveGuardBps) }
      : {}),
    ...(trade.fastMoveWindowMs !== null ? { fast_move_window_ms: trade.fastMoveWindowMs } : {}),
    ...(trade.fastMoveSettleMs !== null ? { fast_move_settle_ms: trade.fastMoveSettleMs } : {}),
    long_mode: modeOf(trade.longExchange),
    short_mode: modeOf(trade.shortExchange),
    costs,
  };
}

export interface TradeEventView {
  sequence: number;
  event_type: string;
  data: Record<string, unknown>;
  worker_id: string;
  created_at: string;
}

export const presentTradeEvent = (event: PagedLogEntry): TradeEventView => ({
  sequence: event.sequence,
  event_type: event.eventType,
  data: event.data as Record<string, unknown>,
  worker_id: event.workerId,
  created_at: event.createdAt.toISOString(),
});

/**
 * A page of the execution log. `has_more` says entries follow the page;
 * `next_after_sequence` (only then) is the `after_sequence` that reads them.
 */
export interface TradeEventsView {
  trade_id: string;
  events: TradeEventView[];
  has_more: boolean;
  next_after_sequence?: number;
}

export const presentTradeEvents = (
  tradeId: string,
  page: { entries: PagedLogEntry[]; hasMore: boolean },
): TradeEventsView => {
  const last = page.entries.at(-1);
  return {
    trade_id: tradeId,
    events: page.entries.map(presentTradeEvent),
    has_more: page.hasMore,
    ...(page.hasMore && last ? { next_after_sequence: last.sequence } : {}),
  };
};
