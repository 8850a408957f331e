import type Big from 'big.js';
import { leastCommonMultiple, maxOf } from '../decimal/decimal-math';
import { compare } from '../decimal/compare';
import type { VenueId } from '../venue/venue';

/**
 * Which of its minimums a venue still applies to a reduce-only order:
 *  - `full`: min_size and min_notional, as any order;
 *  - `size_only`: min_size only, min_notional waived;
 *  - `size_only_when_closing`: min_notional waived only when the order's size
 *    is the whole position on the market (min_size kept).
 */
export type ReduceOnlyMinimum = 'full' | 'size_only' | 'size_only_when_closing';

/**
 * What each venue spares a reduce-only order. Aster: its -4164 error text
 * "Order's notional must be no smaller than %s (unless you choose reduce
 * only)", minQty kept (apps/venue-sim/src/dialects/aster/README.md). Paradex:
 * "Placing Orders", a reduce-only order is taken below the Minimum Order Value
 * "if it matches the size of an offsetting position"
 * (apps/venue-sim/src/dialects/paradex/README.md). The others document no
 * exemption: their full minimum.
 */
export const REDUCE_ONLY_MINIMUM: Readonly<Record<VenueId, ReduceOnlyMinimum>> = {
  hyperliquid: 'full',
  lighter: 'full',
  paradex: 'size_only_when_closing',
  extended: 'full',
  aster: 'size_only',
};

/** One venue's trading rules for the trade's market (the Market per-exchange entry). */
export interface LegRules {
  /** Minimum price increment: every price on this venue is a multiple of it. */
  tickSize: Big;
  /** Minimum size increment: every size on this venue is a multiple of it. */
  lotSize: Big;
  minSize: Big;
  /** Minimum order value in USD, on venues that have one. */
  minNotional?: Big;
  /** What the venue spares a reduce-only order (`REDUCE_ONLY_MINIMUM`); absent: `full`. */
  reduceOnlyMinimum?: ReduceOnlyMinimum;
}

/** The market's rules on both legs of a trade. */
export interface TradeMarket {
  long: LegRules;
  short: LegRules;
}

/** The best bid and best ask of one venue's book. */
export interface BookTouch {
  bestBid: Big;
  bestAsk: Big;
}

/** `max(tick_long, tick_short)`: the unit of `ticks` spreads and of the `eq` band (decisions 2). */
export const coarserTickSize = (market: TradeMarket): Big =>
  maxOf(market.long.tickSize, market.short.tickSize);

/**
 * The coarser lot: the smallest size that is a whole number of lots on both
 * venues, so a fully filled maker order can be hedged in one order.
 */
export const coarserLotSize = (market: TradeMarket): Big => {
  let lot = coarserLots.get(market);
  if (!lot) {
    lot = leastCommonMultiple(market.long.lotSize, market.short.lotSize);
    coarserLots.set(market, lot);
  }
  return lot;
};

/** Rules never change under a TradeMarket: its coarser lot is worked out once (quotes ask often). */
const coarserLots = new WeakMap<TradeMarket, Big>();

/** A book whose best bid is not below its best ask is stale or broken: never quote on it. */
export const isCrossedOrLocked = (touch: BookTouch): boolean =>
  compare(touch.bestBid, touch.bestAsk) >= 0;
