import type { BudgetReserveResult, HolderShare } from '@sts/contracts';
import type { AppError } from '@sts/platform';
import type { TradeBudget } from './trade-budget';
import { budgetFailureError, BudgetRefusedError } from './budget-errors';

export function toTradeBudget(
  tradeId: string,
  maker: HolderShare,
  hedge: HolderShare | null,
): TradeBudget {
  return { tradeId, rateBudget: maker.share, hedgeRateBudget: hedge?.share ?? null, maker, hedge };
}

/** One reservation's answer: its budget, or the error its create fails with. */
export function reserveAnswer(result: BudgetReserveResult): TradeBudget | AppError {
  switch (result.outcome) {
    case 'granted':
      return toTradeBudget(result.trade_id, result.maker, result.hedge);
    case 'refused':
      return new BudgetRefusedError(result);
    case 'failed':
      return budgetFailureError(result);
  }
}
