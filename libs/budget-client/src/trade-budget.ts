import type { HolderShare } from '@sts/contracts';

/** What a trade holds: `rateBudget` and, where the hedge venue shares its limit, `hedgeRateBudget`. */
export interface TradeBudget {
  tradeId: string;
  rateBudget: number;
  /** Null when the hedge venue does not share its account limit: the trade row stores NULL. */
  hedgeRateBudget: number | null;
  maker: HolderShare;
  hedge: HolderShare | null;
}
