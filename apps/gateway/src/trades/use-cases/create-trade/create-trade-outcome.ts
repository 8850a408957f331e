/** A trade the create answers with: new, or the one its idempotency key already made. */
export interface AcceptedTrade {
  tradeId: string;
  status: string;
  rateBudget: number;
  hedgeRateBudget: number | null;
}

/** `created`: a new trade, committed. `replayed`: the idempotency key's earlier trade. */
export type CreateTradeOutcome =
  { kind: 'created'; trade: AcceptedTrade } | { kind: 'replayed'; trade: AcceptedTrade };
