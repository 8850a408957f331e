import { validatePlacement } from '../../engine/order-validation';
import type { ReduceOnlyMinimums } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { ExtendedError } from './extended-accounts';
import type { ParsedOrder } from './extended-order-request';

/**
 * The engine's placement of an Extended order request; a reduce-only one
 * spared the minimums `reduceOnlyMinimums` names (reading `reduce_only_min_size`).
 */
export function placeCommand(order: ParsedOrder, reduceOnlyMinimums: ReduceOnlyMinimums = 'apply') {
  return {
    symbol: order.market,
    side: order.side === 'BUY' ? ('buy' as const) : ('sell' as const),
    type: order.tif === 'IOC' ? ('ioc' as const) : ('post_only' as const),
    price: order.price,
    size: order.qty,
    clientOrderId: order.externalId,
    ...(order.reduceOnly ? { reduceOnly: true, reduceOnlyMinimums } : {}),
  };
}

/**
 * The checks the venue answers on the placement request itself, with the
 * error codes ccxt lists for them (js/src/extended.js exceptions.exact):
 * price step 1124, size step 1121, minimum size 1120, the cost 1140; and a
 * reduce-only order against the position: none 1137, on the order's side
 * 1138, smaller than the order 1136.
 */
export function checkRequest(
  venue: VenueEngine,
  wallet: string,
  order: ParsedOrder,
  reduceOnlyMinimums: ReduceOnlyMinimums = 'apply',
): void {
  try {
    validatePlacement(
      venue,
      wallet,
      venue.market(order.market),
      placeCommand(order, reduceOnlyMinimums),
    );
  } catch (error) {
    throw requestRefusal(error);
  }
  if (order.reduceOnly) {
    checkReduceOnly(venue, wallet, order);
  }
}

function checkReduceOnly(venue: VenueEngine, wallet: string, order: ParsedOrder): void {
  const position = venue.account(wallet).positions.get(order.market)?.size;
  if (position === undefined || position.eq(0)) {
    throw new ExtendedError(400, 1137, 'Position is missing for a reduce-only order.');
  }
  if (position.gt(0) === (order.side === 'BUY')) {
    throw new ExtendedError(400, 1138, 'Position is the same side as a reduce-only order.');
  }
  if (position.abs().lt(order.qty)) {
    throw new ExtendedError(400, 1136, 'Reduce-only order size exceeds open position size.');
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
    case 'rejected':
      // A reduce-only order the position no longer lets reduce when the queue reaches the engine.
      return reason === 'reduce_only' ? 'REDUCE_ONLY_FAILED' : undefined;
    case 'invalid_order':
      return reason === 'invalid_tick' ? 'INVALID_PRICE' : 'INVALID_QTY';
    default:
      return undefined;
  }
}
