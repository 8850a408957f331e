import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';

export type ExtendedTif = 'GTT' | 'IOC';

export interface OrderNotes {
  /** The id the placement was answered with (the venue's id of the order everywhere after). */
  id?: string;
  tif: ExtendedTif;
  postOnly: boolean;
  statusReason?: string;
  payedFee?: string;
}

/** An order the venue accepted, then rejected before the book (the engine never held it). */
export interface Unplaced {
  id: string;
  account: number;
  wallet: string;
  externalId: string;
  market: string;
  side: 'BUY' | 'SELL';
  qty: string;
  price: string;
  tif: ExtendedTif;
  postOnly: boolean;
  reduceOnly: boolean;
  statusReason: string;
  createdTime: number;
  updatedTime?: number;
}

function statusOf(order: EngineOrder, notes: OrderNotes): string {
  switch (order.status) {
    case 'open':
      return 'NEW';
    case 'partially_filled':
      return 'PARTIALLY_FILLED';
    case 'filled':
      return 'FILLED';
    case 'canceled':
      return notes.tif === 'IOC' ? 'EXPIRED' : 'CANCELLED';
  }
}

/** An engine order as Extended's order endpoints and account stream give it. */
export function extendedOrder(
  venue: VenueEngine,
  order: EngineOrder,
  accountId: number,
  notes: OrderNotes,
) {
  const market = venue.market(order.symbol);
  const filled = market.lot.toBig(order.filledLots);
  return {
    id: notes.id !== undefined ? Number(notes.id) : numericId(order.orderId),
    accountId,
    externalId: order.clientOrderId,
    market: order.symbol,
    type: 'LIMIT',
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    status: statusOf(order, notes),
    ...(notes.statusReason ? { statusReason: notes.statusReason } : {}),
    price: market.price.format(order.priceTicks),
    averagePrice: filled.gt(0) ? order.filledValue.div(filled).round(8).toFixed() : '0',
    qty: market.lot.format(order.sizeLots),
    filledQty: market.lot.format(order.filledLots),
    payedFee: '0',
    reduceOnly: order.reduceOnly === true,
    postOnly: notes.postOnly,
    createdTime: order.createdAtMs,
    updatedTime: order.updatedAtMs,
    timeInForce: notes.tif,
    expireTime: Math.floor(order.createdAtMs / 1000) + 3_600,
  };
}

/** An order the venue answered and its engine has not acted on yet: `NEW`, nothing filled. */
export function queuedOrder(order: Omit<Unplaced, 'statusReason'>) {
  return {
    id: Number(order.id),
    accountId: order.account,
    externalId: order.externalId,
    market: order.market,
    type: 'LIMIT',
    side: order.side,
    status: 'NEW',
    price: order.price,
    averagePrice: '0',
    qty: order.qty,
    filledQty: '0',
    payedFee: '0',
    reduceOnly: order.reduceOnly,
    postOnly: order.postOnly,
    createdTime: order.createdTime,
    updatedTime: order.createdTime,
    timeInForce: order.tif,
    expireTime: Math.floor(order.createdTime / 1000) + 3_600,
  };
}

/**
 * An order as the venue shows it accepted, before anything happened to it:
 * `NEW`, nothing filled (the account stream's first update of an order
 * under `stream_first=new_then_fate`).
 */
export function acceptedOrder(view: { createdTime: number }): Record<string, unknown> {
  const accepted: Record<string, unknown> = {
    ...view,
    status: 'NEW',
    filledQty: '0',
    averagePrice: '0',
    payedFee: '0',
    updatedTime: view.createdTime,
  };
  delete accepted['statusReason'];
  return accepted;
}

/** True when an order view shows it accepted with nothing happened yet (what `acceptedOrder` gives). */
export const isAccepted = (view: { status: string; filledQty: string }): boolean =>
  view.status === 'NEW' && Number(view.filledQty) === 0;

/** An order the engine closed without placing it: `REJECTED` with its reason. */
export function unplacedOrder(order: Unplaced) {
  return {
    ...queuedOrder(order),
    status: 'REJECTED',
    statusReason: order.statusReason,
    updatedTime: order.updatedTime ?? order.createdTime,
  };
}

/** One of the account's trades as `GET /api/v1/user/trades` and the account stream give it. */
export function extendedTrade(
  venue: VenueEngine,
  fill: EngineFill,
  accountId: number,
  orderId: number = numericId(fill.orderId),
) {
  const market = venue.market(fill.symbol);
  const price = market.price.toBig(fill.priceTicks);
  const qty = market.lot.toBig(fill.lots);
  return {
    id: numericId(fill.fillId),
    accountId,
    market: fill.symbol,
    orderId,
    externalId: fill.clientOrderId,
    externalOrderId: fill.clientOrderId,
    side: fill.side === 'buy' ? 'BUY' : 'SELL',
    price: price.toFixed(),
    qty: qty.toFixed(),
    value: price.times(qty).toFixed(),
    fee: fill.fee.toFixed(),
    tradeType: 'TRADE',
    isTaker: fill.liquidity === 'taker',
    createdTime: fill.tsMs,
  };
}
