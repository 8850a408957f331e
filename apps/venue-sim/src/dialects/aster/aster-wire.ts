import type { MarketState } from '../../engine/market-state';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';
import { asterClientId, expiredOnEntry } from './aster-client-ids';

export { engineOrderId, numericId } from '../engine-ids';
export * from './aster-wire-account';
export * from './aster-wire-markets';

/** The time in force an order was sent with; the engine keeps only post-only or IOC. */
export type AsterTif = 'GTX' | 'IOC' | 'GTC';

export type AsterOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

/**
 * What the engine's order state is in Aster's words: an IOC's unfilled rest
 * expires, and so does a GTX order the venue expired on entry.
 */
export function asterStatus(order: EngineOrder): AsterOrderStatus {
  switch (order.status) {
    case 'open':
      return 'NEW';
    case 'partially_filled':
      return 'PARTIALLY_FILLED';
    case 'filled':
      return 'FILLED';
    case 'canceled':
      return order.type === 'ioc' || expiredOnEntry(order) ? 'EXPIRED' : 'CANCELED';
  }
}

export function averagePrice(market: MarketState, order: EngineOrder): string {
  if (order.filledLots === 0) {
    return '0';
  }
  return order.filledValue.div(market.lot.toBig(order.filledLots)).round(8).toFixed();
}

/** An order as Aster's order endpoints answer it (one-way mode: positionSide BOTH). */
export function asterOrder(venue: VenueEngine, order: EngineOrder, tif: AsterTif) {
  const market = venue.market(order.symbol);
  return {
    orderId: numericId(order.orderId),
    symbol: order.symbol,
    status: asterStatus(order),
    clientOrderId: asterClientId(order.clientOrderId),
    price: market.price.format(order.priceTicks),
    avgPrice: averagePrice(market, order),
    origQty: market.lot.format(order.sizeLots),
    executedQty: market.lot.format(order.filledLots),
    cumQty: market.lot.format(order.filledLots),
    cumQuote: order.filledValue.round(8).toFixed(),
    timeInForce: tif,
    type: 'LIMIT',
    reduceOnly: order.reduceOnly === true,
    closePosition: false,
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    positionSide: 'BOTH',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: 'LIMIT',
    time: order.createdAtMs,
    updateTime: order.updatedAtMs,
  };
}

/** One of the account's trades as `GET /fapi/v3/userTrades` lists it. */
export function asterTrade(venue: VenueEngine, fill: EngineFill) {
  const market = venue.market(fill.symbol);
  const price = market.price.toBig(fill.priceTicks);
  const qty = market.lot.toBig(fill.lots);
  return {
    buyer: fill.side === 'buy',
    commission: fill.fee.toFixed(),
    commissionAsset: market.spec.quote,
    id: numericId(fill.fillId),
    maker: fill.liquidity === 'maker',
    orderId: numericId(fill.orderId),
    price: price.toFixed(),
    qty: qty.toFixed(),
    quoteQty: price.times(qty).toFixed(),
    // The engine books realised PnL per account, not per fill.
    realizedPnl: '0',
    side: fill.side === 'buy' ? 'BUY' : 'SELL',
    positionSide: 'BOTH',
    symbol: fill.symbol,
    time: fill.tsMs,
  };
}
