/**
 * A new trade's shares, and the budget store's version of each: the trade row
 * keeps them, so its accounts' rows show its budgets only once they are at
 * least as new as its grant (trade_budgets).
 */
export interface GrantedBudgets {
  rateBudget: number;
  hedgeRateBudget: number | null;
  version: number;
  hedgeVersion: number;
}

export interface ReservationRequest {
  tradeId: string;
  maker: { venue: string; wallet: string };
  hedge: { venue: string; wallet: string };
  correlationId: string;
}

/** The gateway's view of the budget service: rule 7 and giving shares back. */
export abstract class RateBudgets {
  /**
   * A group's reservations in one request: each answered in order with its
   * budgets or its error (AppError rate_budget_exhausted, 429); a batch that
   * cannot be reserved at all throws service_unavailable (503, its reason
   * names what is down). `withinMs`: how long it may wait for the budget
   * service at most (never longer than the client's own timeout).
   */
  abstract reserveBatch(
    requests: ReservationRequest[],
    withinMs?: number,
  ): Promise<Array<GrantedBudgets | Error>>;

  /** Best effort: the budget service also sweeps holders whose trade is gone or terminal. */
  abstract release(tradeId: string, reason: 'create_failed' | 'canceled'): Promise<void>;
}
