import { validatePlacement } from '../../engine/order-validation';
import type { VenueEngine } from '../../engine/venue-engine';
import { ExtendedError } from './extended-accounts';
import type { ParsedOrder } from './extended-order-request';

/** The engine's placement of an Extended order request. */
export function placeCommand(order: ParsedOrder) {
  return {
    symbol: order.market,
    side: order.side === 'BUY' ? ('buy' as const) : ('sell' as const),
    type: order.tif === 'IOC' ? ('ioc' as const) : ('post_only' as const),
    price: order.price,
    size: order.qty,
    clientOrderId: order.externalId,
  };
}

/**
 * The checks the venue answers on the placement request itself, with the
 * error codes ccxt lists for them (js/src/extended.js exceptions.exact):
 * price step 1124, size step 1121, minimum size 1120, the cost 1140.
 */
export function checkRequest(venue: VenueEngine, wallet: string, order: ParsedOrder): void {
  try {
    validatePlacement(venue, wallet, venue.market(order.market), placeCommand(order));
  } catch (error) {
    throw requestRefusal(error);
  }
}

/** An engine refusal as the venue's error answer, or the error itself when it is none. */
export function requestRefusal(error: unknown): unknown {
  const { code, reason } = error as { code?: unknown; reason?: unknown };
  if (code === 'insufficient_margin') {
    return new ExtendedError(400, 1140, 'New order cost exceeds available balance.');
  }
  if (code === 'duplicate_client_order_id') {
    return new ExtendedError(400, 1134, 'Duplicate Order.');
  }
  if (code !== 'invalid_order') {
    return error;
  }
  if (reason === 'invalid_tick') {
    return new ExtendedError(400, 1124, 'Invalid price due to wrong price movement.');
  }
  if (reason === 'below_min_size') {
    return new ExtendedError(400, 1120, 'Order quantity less than min trade size.');
  }
  return new ExtendedError(400, 1121, 'Invalid quantity due to the wrong size increment.');
}

/**
 * Why the engine closed a queued order without placing it, in the SDK's
 * OrderStatusReason words (x10/perpetual/orders.py), or undefined when the
 * engine's error is not a refusal.
 */
export function statusReasonOf(error: unknown): string | undefined {
  const { code, reason } = error as { code?: unknown; reason?: unknown };
  switch (code) {
    case 'post_only_would_cross':
      return 'POST_ONLY_FAILED';
    case 'insufficient_margin':
      return 'NOT_ENOUGH_FUNDS';
    case 'invalid_order':
      return reason === 'invalid_tick' ? 'INVALID_PRICE' : 'INVALID_QTY';
    default:
      return undefined;
  }
}
