import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';
import { HlBodyError, HlOrderError, hlText } from './hl-errors';
import type { WireOrder } from './hl-exchange-request';
import { assetOf, decimalsOf, plain, type HlTif } from './hl-wire';

/** The venue's order rules and the statuses it answers an order with. */

/** Hyperliquid's perp prices: at most 5 significant figures, at most 6 − szDecimals decimals. */
const SIGNIFICANT_FIGURES = 5;
const PERP_MAX_DECIMALS = 6;

/** The venue's price and size rules, before the engine's own checks. */
export function checkOrder(market: MarketState, order: WireOrder): HlTif {
  if (order.t.trigger !== undefined) {
    throw new HlOrderError(hlText.unsupported('trigger orders'));
  }
  const tif = order.t.limit?.tif;
  if (tif !== 'Alo' && tif !== 'Ioc' && tif !== 'Gtc') {
    throw new HlBodyError();
  }
  if (order.r && tif !== 'Ioc') {
    // The venue rests reduce-only orders; the engine reduces with an IOC only.
    throw new HlOrderError(hlText.unsupported('resting reduce-only orders'));
  }
  const szDecimals = decimalsOf(market.spec.lotSize);
  if (new Big(order.s).eq(0)) {
    throw new HlOrderError(hlText.zeroSize(order.a));
  }
  if (decimalsOf(order.s) > szDecimals) {
    throw new HlOrderError(hlText.invalidSize(order.a));
  }
  if (!priceAllowed(order.p, szDecimals)) {
    throw new HlOrderError(hlText.tick(order.a));
  }
  return tif;
}

/**
 * Hyperliquid's perp price rule: an integer price is always allowed;
 * otherwise at most 5 significant figures and at most 6 − szDecimals decimals.
 */
export function priceAllowed(price: string, szDecimals: number): boolean {
  const value = new Big(price);
  if (value.lte(0)) {
    return false;
  }
  const decimals = decimalsOf(price);
  if (decimals === 0) {
    return true;
  }
  if (decimals > PERP_MAX_DECIMALS - szDecimals) {
    return false;
  }
  const digits = value.toFixed().replace('.', '').replace(/^0+/, '');
  return digits.length <= SIGNIFICANT_FIGURES;
}

/** The status of a placed order: resting, or an IOC's fills (none is an error). */
export function placed(venue: VenueEngine, order: EngineOrder, cloid: string | undefined): unknown {
  const market = venue.market(order.symbol);
  const ids = { oid: numericId(order.orderId), ...(cloid ? { cloid: cloid.toLowerCase() } : {}) };
  if (order.type === 'post_only') {
    return { resting: ids };
  }
  if (order.filledLots === 0) {
    return { error: hlText.iocNoMatch(assetOf(venue, order.symbol)) };
  }
  const size = market.lot.toBig(order.filledLots);
  return {
    filled: {
      totalSz: plain(size),
      avgPx: plain(order.filledValue.div(size).round(6)),
      ...ids,
    },
  };
}

/** The order status the venue keeps for an order it refused. */
export function rejectionStatus(text: string, tif: HlTif): string {
  if (text.startsWith('Post only order would have immediately matched')) {
    return 'badAloPxRejected';
  }
  if (text.startsWith('Order could not immediately match')) {
    return 'iocCancelRejected';
  }
  if (text.startsWith('Insufficient margin')) {
    return 'perpMarginRejected';
  }
  if (text.startsWith('Price must be divisible')) {
    return 'tickRejected';
  }
  if (text.startsWith('Order must have minimum value')) {
    return 'minTradeNtlRejected';
  }
  if (text.startsWith('Reduce only order would increase position')) {
    return 'reduceOnlyRejected';
  }
  return tif === 'Ioc' ? 'iocCancelRejected' : 'rejected';
}

export const bbo = (market: MarketState): string => {
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const text = (ticks: number | undefined) =>
    ticks === undefined ? 'None' : plain(market.price.toBig(ticks));
  return `${text(bid?.priceTicks)}@${text(ask?.priceTicks)}`;
};

export const isCode = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === code;
