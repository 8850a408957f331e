import type Big from 'big.js';
import type { BookTouch, LegRules, TradeMarket } from '../market/market-rules';
import type { MakerLeg, Side } from '../trade/trade-terms';

/** The long leg buys on long_exchange, the short leg sells on short_exchange. */
export const makerSide = (makerLeg: MakerLeg): Side => (makerLeg === 'long' ? 'buy' : 'sell');

export const hedgeSide = (makerLeg: MakerLeg): Side => (makerLeg === 'long' ? 'sell' : 'buy');

export const makerRules = (market: TradeMarket, makerLeg: MakerLeg): LegRules =>
  makerLeg === 'long' ? market.long : market.short;

export const hedgeRules = (market: TradeMarket, makerLeg: MakerLeg): LegRules =>
  makerLeg === 'long' ? market.short : market.long;

export interface TradeVenues<V extends string = string> {
  longExchange: V;
  shortExchange: V;
}

export const makerExchange = <V extends string>(venues: TradeVenues<V>, makerLeg: MakerLeg): V =>
  makerLeg === 'long' ? venues.longExchange : venues.shortExchange;

export const hedgeExchange = <V extends string>(venues: TradeVenues<V>, makerLeg: MakerLeg): V =>
  makerLeg === 'long' ? venues.shortExchange : venues.longExchange;

/**
 * Hedge reference H: the touch the hedge would take. A long maker is hedged by
 * selling on the short venue (its best bid); a short maker by buying on the
 * long venue (its best ask).
 */
export const hedgeReferenceFrom = (makerLeg: MakerLeg, hedgeVenueTouch: BookTouch): Big =>
  makerLeg === 'long' ? hedgeVenueTouch.bestBid : hedgeVenueTouch.bestAsk;

/** The maker-side touch a default quote joins: best bid for a buy, best ask for a sell. */
export const makerSideTouch = (makerLeg: MakerLeg, makerVenueTouch: BookTouch): Big =>
  makerLeg === 'long' ? makerVenueTouch.bestBid : makerVenueTouch.bestAsk;
