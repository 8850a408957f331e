import type Big from 'big.js';
import { leastCommonMultiple, maxOf } from '../decimal/decimal-math';
import { compare } from '../decimal/compare';

/** One venue's trading rules for the trade's market (the Market per-exchange entry). */
export interface LegRules {
  /** Minimum price increment: every price on this venue is a multiple of it. */
  tickSize: Big;
  /** Minimum size increment: every size on this venue is a multiple of it. */
  lotSize: Big;
  minSize: Big;
  /** Minimum order value in USD, on venues that have one. */
  minNotional?: Big;
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
