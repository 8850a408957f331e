import { LIVE_STATUS_SQL } from './trade-status-sql';

/**
 * A trade's budgets as the API shows them, for a query over `trades t`: a
 * live trade's are its accounts' shares (`budget_account_shares`) once an
 * account row at least as new as its grant is written (its row's grant until
 * then), a finished trade's those frozen into its row when it ended. The same as the `trade_budgets` view,
 * spelled as joins on `t` so a read of trades needs no second pass over the
 * table (joining the view back to trades costs a self-join to plan and run).
 */
export const TRADE_BUDGETS_JOIN_SQL = `
  LEFT JOIN budget_account_shares budget_maker
    ON t.status IN ${LIVE_STATUS_SQL}
      AND budget_maker.venue = t.maker_exchange AND budget_maker.wallet = t.maker_wallet
      AND budget_maker.version >= t.budget_version
  LEFT JOIN budget_account_shares budget_hedge
    ON t.hedge_rate_budget IS NOT NULL AND t.status IN ${LIVE_STATUS_SQL}
      AND budget_hedge.venue = t.hedge_exchange AND budget_hedge.wallet = t.hedge_wallet
      AND budget_hedge.version >= t.hedge_budget_version`;

/** `rate_budget` of `t` with TRADE_BUDGETS_JOIN_SQL. */
export const TRADE_RATE_BUDGET_SQL = 'COALESCE(budget_maker.share, t.rate_budget)';

/** `hedge_rate_budget` of `t` with TRADE_BUDGETS_JOIN_SQL (null when the trade holds none). */
export const TRADE_HEDGE_RATE_BUDGET_SQL = 'COALESCE(budget_hedge.share, t.hedge_rate_budget)';
