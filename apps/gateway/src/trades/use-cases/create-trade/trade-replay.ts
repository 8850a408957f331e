import type { TradeRepository } from '@sts/persistence';
import type { CreateTradeOutcome } from './create-trade-outcome';

/**
 * The trade an idempotency key made, as its replay answers it: the original
 * trade's id, its current status and its budgets as they are now. Read only
 * when a key is found again (the create's own check reads whether it exists).
 */
export async function readReplay(
  trades: TradeRepository,
  userId: string,
  idempotencyKey: string,
): Promise<CreateTradeOutcome | null> {
  const trade = await trades.findReplay(userId, idempotencyKey);
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
  trades: TradeRepository,
  userId: string,
  idempotencyKey: string,
): Promise<CreateTradeOutcome> {
  const replay = await readReplay(trades, userId, idempotencyKey);
  if (!replay) {
    throw new Error(`the trade of idempotency key ${idempotencyKey} is gone`);
  }
  return replay;
}
