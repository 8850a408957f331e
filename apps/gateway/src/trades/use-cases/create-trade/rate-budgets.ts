/** The gateway's view of the budget service: rule 7 and giving shares back. */
export abstract class RateBudgets {
  /** Throws AppError rate_budget_exhausted (429) or service_unavailable (503, reason names what is down). */
  abstract reserve(request: {
    tradeId: string;
    maker: { venue: string; wallet: string };
    hedge: { venue: string; wallet: string };
    correlationId: string;
  }): Promise<{ rateBudget: number; hedgeRateBudget: number | null }>;

  /** Best effort: the budget service also sweeps holders whose trade is gone or terminal. */
  abstract release(tradeId: string, reason: 'create_failed' | 'canceled'): Promise<void>;
}
