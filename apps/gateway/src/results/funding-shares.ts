import Big from 'big.js';
import type { ResultFill } from './result-fills';

/** Shares are kept to the venues' USD precision. */
export const FUNDING_SHARE_DP = 8;

/** One settlement of one market on one account. */
export interface SettledFunding {
  timeMs: number;
  /** Signed: positive received. */
  amount: Big;
  /** The account's signed position it was paid on, when the venue says. */
  size: Big | null;
}

/**
 * Which of the user's trades earned a settlement, and how much each: by the
 * position each trade's fills on that account and market held at the
 * settlement (fills at or before it). Only trades holding the position's
 * direction share; each gets the payment times its size over the larger of
 * the venue's position and the trades' together, so a position beyond the
 * trades' (one the trader holds by hand) keeps its part, unattributed.
 * `fills` are the account's fills in that market.
 */
export function fundingShares(
  payment: SettledFunding,
  fills: readonly ResultFill[],
): Array<{ tradeId: string; amount: Big }> {
  const held = new Map<string, Big>();
  for (const fill of fills) {
    if (fill.timeMs > payment.timeMs) {
      continue;
    }
    const signed = fill.side === 'buy' ? fill.size : fill.size.neg();
    held.set(fill.tradeId, (held.get(fill.tradeId) ?? new Big(0)).plus(signed));
  }
  const together = [...held.values()].reduce((sum, size) => sum.plus(size), new Big(0));
  const venue = payment.size ?? together;
  if (venue.eq(0)) {
    return [];
  }
  const direction = venue.gt(0) ? 1 : -1;
  const holders = [...held].filter(([, size]) => size.gt(0) === direction > 0 && !size.eq(0));
  const holding = holders.reduce((sum, [, size]) => sum.plus(size.abs()), new Big(0));
  const denominator = holding.gt(venue.abs()) ? holding : venue.abs();
  const shares = holders.map(([tradeId, size]) => ({
    tradeId,
    amount: payment.amount
      .times(size.abs())
      .div(denominator)
      .round(FUNDING_SHARE_DP, Big.roundHalfEven),
  }));
  return holding.eq(venue.abs()) ? withRemainderOnLargest(shares, payment.amount) : shares;
}

/**
 * When the trades hold the venue's whole position, the payment is theirs to
 * the last unit: what rounding the shares left goes to the largest one.
 */
function withRemainderOnLargest(
  shares: Array<{ tradeId: string; amount: Big }>,
  amount: Big,
): Array<{ tradeId: string; amount: Big }> {
  const largest = shares.reduce((best, share) =>
    share.amount.abs().gt(best.amount.abs()) ? share : best,
  );
  const left = shares.reduce((rest, share) => rest.minus(share.amount), amount);
  return shares.map((share) =>
    share === largest ? { ...share, amount: share.amount.plus(left) } : share,
  );
}
