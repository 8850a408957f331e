import type { TradeStatus } from '@sts/domain';
import { sqlStatus } from '../sql/trade-status-sql';
import { sqlLiteral } from './trade-sql-literal';

/** Every trade starts here (decisions 3); the worker's claim moves it on. */
const NEW_TRADE_STATUS: TradeStatus = 'pending';

/**
 * A new trade's row as the create writes it: its columns by their SQL names;
 * everything else (status included) takes the table's defaults or is set by
 * the insert itself.
 */
export interface NewTradeRow {
  id: string;
  user_id: string;
  market: string;
  long_exchange: string;
  long_wallet: string;
  short_exchange: string;
  short_wallet: string;
  maker_leg: string;
  maker_exchange: string;
  maker_wallet: string;
  hedge_exchange: string;
  hedge_wallet: string;
  cap_group: string;
  target_spread: string;
  spread_condition: string;
  spread_type: string;
  target_size: string;
  size_type: string;
  execution_type: string;
  max_slippage: string;
  rate_budget: number;
  hedge_rate_budget: number | null;
  budget_version: number;
  hedge_budget_version: number;
  quote_mode: string;
  worst_spread: string | null;
  fast_move_guard: string | null;
  fast_move_guard_bps: string | null;
  fast_move_window_ms: number | null;
  fast_move_settle_ms: number | null;
  idempotency_key: string;
}

/**
 * The insert of a group of new trades, as one statement with literal values
 * (the create sends it in the simple protocol, with its outbox rows and the
 * COMMIT, in one round trip). Every row is written pending.
 */
export function insertNewTradesSql(trades: readonly NewTradeRow[]): string {
  const columns = Object.keys(trades[0]) as Array<keyof NewTradeRow>;
  const status = sqlStatus(NEW_TRADE_STATUS);
  const rows = trades.map(
    (trade) =>
      `(${columns.map((column) => sqlLiteral(trade[column] ?? null)).join(', ')}, ${status})`,
  );
  return `INSERT INTO trades (${columns.join(', ')}, status) VALUES ${rows.join(', ')}`;
}
