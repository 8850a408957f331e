import type { Pool } from 'pg';
import {
  TRADE_BUDGETS_JOIN_SQL,
  TRADE_HEDGE_RATE_BUDGET_SQL,
  TRADE_RATE_BUDGET_SQL,
} from '@sts/persistence';
import type { CreateTradeOutcome } from './create-trade-outcome';

interface ReplayRow {
  id: string;
  status: string;
  rate_budget: number;
  hedge_rate_budget: number | null;
}

/**
 * The trade an idempotency key made, as its replay answers it: the original
 * trade's id, its current status and its budgets as they are now. Read only
 * when a key is found again (the create's own check reads whether it exists).
 */
export async function readReplay(
  pool: Pool,
  userId: string,
  idempotencyKey: string,
): Promise<CreateTradeOutcome | null> {
  const { rows } = await pool.query<ReplayRow>({
    name: 'trades.replay',
    text: `SELECT t.id, t.status, ${TRADE_RATE_BUDGET_SQL} AS rate_budget,
        ${TRADE_HEDGE_RATE_BUDGET_SQL} AS hedge_rate_budget
      FROM trades t ${TRADE_BUDGETS_JOIN_SQL}
      WHERE t.user_id = $1 AND t.idempotency_key = $2`,
    values: [userId, idempotencyKey],
  });
  const [trade] = rows;
  return trade
    ? {
        kind: 'replayed',
        trade: {
          tradeId: trade.id,
          status: trade.status,
          rateBudget: trade.rate_budget,
          hedgeRateBudget: trade.hedge_rate_budget,
        },
      }
    : null;
}

/** The replay of a key whose trade was found under the create's lock (trades are never deleted). */
export async function readExistingReplay(
  pool: Pool,
  userId: string,
  idempotencyKey: string,
): Promise<CreateTradeOutcome> {
  const replay = await readReplay(pool, userId, idempotencyKey);
  if (!replay) {
    throw new Error(`the trade of idempotency key ${idempotencyKey} is gone`);
  }
  return replay;
}
