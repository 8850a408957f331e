/**
 * A venue account's cumulative request budget as the budget service divides
 * it: what the venue last said is left, less what the fleet spent since.
 * Hyperliquid's address budget (10,000 + 1 per USDC traded, then one action
 * per 10 s) and Lighter's volume quota (1,000 + 1 per 10 USDC, then one
 * transaction per 15 s) never reset: once spent, a hedge IOC waits 10-15 s
 * against a hedge timeout of a few seconds. So a trade may rest a maker
 * order only while what is left pays for the hedges the resting makers of
 * every trade hedging there could need.
 */

/**
 * Hedge IOCs one resting maker order may need on its hedge account: its
 * fills come in parts (a hedge for each part that reaches the hedge venue's
 * minimum) and a partly filled IOC is sent again for the rest. Eight covers
 * a maker order filled in four parts, each hedged in two attempts. The
 * look-ups a lost hedge answer needs are reads, which neither venue counts
 * against these budgets (Hyperliquid counts actions, Lighter transactions).
 */
export const HEDGE_REQUESTS_PER_RESTING_MAKER = 8;

/** What one maker placement spends of its maker account's cumulative budget. */
export const REQUESTS_PER_MAKER_PLACEMENT = 1;

/** One account's cumulative budget as a trade's worker sees it. */
export interface CumulativeQuota {
  /** What the venue last said is left (requests). */
  left: number;
  /** Requests the fleet reported spending on the account since that word. */
  spent: number;
  /**
   * Requests that may have been spent and not reported yet: the account's
   * request rate times how long a report can take (the workers report every
   * poll).
   */
  unreported: number;
  /** Trades that hedge on the account: each may need the hedges of a resting maker. */
  hedgeHolders: number;
}

/** What is left for the account's trades now: the venue's word less every spend that may have happened. */
export function quotaLeft(quota: CumulativeQuota): number {
  return quota.left - quota.spent - quota.unreported;
}

/** What the hedges of every resting maker hedging on the account could need. */
export function hedgeReserve(quota: CumulativeQuota): number {
  return Math.max(1, quota.hedgeHolders) * HEDGE_REQUESTS_PER_RESTING_MAKER;
}

/** Why a trade may not rest a maker order now, or null when it may. */
export interface QuotaHold {
  account: 'maker' | 'hedge';
  left: number;
  needed: number;
}

/**
 * Whether a trade may rest a maker order, by its two accounts' cumulative
 * budgets (null: the venue keeps none there, or has told nothing yet):
 *
 * - on its hedge account what is left must pay the hedge reserve (its own
 *   resting maker's possible hedges among them);
 * - on its maker account what is left must pay a placement beyond that
 *   account's own hedge reserve (the hedges of the trades that hedge there).
 *
 * A trade held takes its resting maker down (a cancel, which both venues
 * let through when spent: Hyperliquid's cancels have room of their own,
 * Lighter's spend none) and places none until what is left pays again.
 */
export function quotaHold(
  maker: CumulativeQuota | null,
  hedge: CumulativeQuota | null,
): QuotaHold | null {
  if (hedge) {
    const left = quotaLeft(hedge);
    const needed = hedgeReserve(hedge);
    if (left < needed) {
      return { account: 'hedge', left, needed };
    }
  }
  if (maker) {
    const left = quotaLeft(maker);
    const needed =
      (maker.hedgeHolders > 0 ? hedgeReserve(maker) : 0) + REQUESTS_PER_MAKER_PLACEMENT;
    if (left < needed) {
      return { account: 'maker', left, needed };
    }
  }
  return null;
}
