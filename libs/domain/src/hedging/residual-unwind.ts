import type Big from 'big.js';
import { floorToStep } from '../decimal/decimal-math';
import { signOf } from '../decimal/compare';
import { isCrossedOrLocked, type BookTouch, type LegRules } from '../market/market-rules';
import { hedgeSide } from '../spread/legs';
import type { MakerLeg, Side } from '../trade/trade-terms';
import { meetsVenueMinimums } from '../sizing/venue-minimums';
import { hedgeLimitPrice } from './hedge-price';

export interface ResidualUnwindInput {
  makerLeg: MakerLeg;
  /** residual_unhedged: maker fills the hedge venue's lot or minimums never let be hedged (base). */
  residual: Big;
  /** The maker venue's rules: the unwind goes where the remainder was filled. */
  makerRules: LegRules;
  /** The maker venue's touch now; null when its book is not known. */
  makerTouch: BookTouch | null;
  /** The trade's max_slippage, a fraction of price, as for a hedge. */
  maxSlippage: Big;
  /**
   * The wallet's position on the maker venue's market as read at the end
   * (base, positive long), or absent when not read: a venue that waives its
   * min_notional only for an order closing the whole position
   * (`size_only_when_closing`) is held to its full minimum without it.
   */
  makerPosition?: Big | null;
}

/**
 * What to do with a trade's residual_unhedged at its end (decisions 2):
 *  - `none`: nothing remains;
 *  - `unwind`: a reduce-only IOC of `size` on the maker venue, on the other
 *    side of the maker fills, limited at `limit` (the touch it takes, less
 *    the slippage, rounded the protective way as a hedge's limit is);
 *  - `below_minimum`: the remainder on the maker venue's lot misses the
 *    minimum that venue holds a reduce-only order to at that limit (min_size,
 *    and min_notional unless `reduceOnlyMinimum` waives it): no order can take
 *    it, the trade names it;
 *  - `no_price`: the maker book is unknown, crossed or locked: nothing to
 *    price a protective limit from, the trade names it.
 */
export type ResidualUnwindPlan =
  | { kind: 'none' }
  | { kind: 'unwind'; side: Side; size: Big; limit: Big }
  | { kind: 'below_minimum'; side: Side; size: Big; limit: Big | null }
  | { kind: 'no_price'; side: Side; size: Big };

export const residualUnwindPlan = (input: ResidualUnwindInput): ResidualUnwindPlan => {
  const { residual, makerRules, makerTouch } = input;
  if (signOf(residual) <= 0) {
    return { kind: 'none' };
  }
  // The maker fills were bought (long maker) or sold (short): the unwind does the other.
  const side = hedgeSide(input.makerLeg);
  const size = floorToStep(residual, makerRules.lotSize);
  if (makerTouch === null || isCrossedOrLocked(makerTouch)) {
    return { kind: 'no_price', side, size: residual };
  }
  const limit = hedgeLimitPrice({
    side,
    // The touch the IOC takes: the best bid for a sell, the best ask for a buy.
    hedgeReference: side === 'sell' ? makerTouch.bestBid : makerTouch.bestAsk,
    maxSlippage: input.maxSlippage,
    tickSize: makerRules.tickSize,
  });
  // The venue judges min_notional at the order's own price: its limit.
  if (signOf(size) <= 0 || !meetsVenueMinimums(size, reduceOnlyRules(input, size), limit)) {
    return { kind: 'below_minimum', side, size: residual, limit };
  }
  return { kind: 'unwind', side, size, limit };
};

/** The maker rules a reduce-only order of `size` is held to: min_notional dropped where the venue waives it. */
const reduceOnlyRules = (input: ResidualUnwindInput, size: Big): LegRules => {
  const { makerRules, makerPosition } = input;
  const waived =
    makerRules.reduceOnlyMinimum === 'size_only' ||
    (makerRules.reduceOnlyMinimum === 'size_only_when_closing' &&
      makerPosition !== undefined &&
      makerPosition !== null &&
      // The position the maker fills built (long for a long maker) is exactly the order's size.
      (input.makerLeg === 'long' ? makerPosition : makerPosition.neg()).eq(size));
  return waived ? { ...makerRules, minNotional: undefined } : makerRules;
};
