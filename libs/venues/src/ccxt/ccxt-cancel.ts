import { isResting, type CancelResult, type CancelTarget } from '../model/orders';
import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { toVenueError, unsettled } from './ccxt-errors';
import type { CcxtOrderLookup } from './ccxt-order-lookup';
import type { OrderRequestExpiry } from './order-expiry';
import { CANCEL_FROM_RECORD, cancelFromRecord } from './order-fate-cancel';
import { QUEUED_ACK, awaitQueued } from './queued-orders';

export interface CcxtCancelDeps {
  venue: string;
  exchange: CcxtExchangeLike;
  lookup: CcxtOrderLookup;
  expiry: OrderRequestExpiry;
}

/**
 * A cancel through ccxt: sent with the request's expiry where the venue takes
 * one (a lost answer settles by it), told `not_open` from `canceled` by the
 * venue's record where "not found" also means "already done", and awaited
 * until the order closes where the venue queues cancels (Paradex's 204).
 * Extended's answer to a cancel of a closed order is unpublished: its
 * outcome comes from the order's record (order-fate-cancel.ts).
 */
export async function cancelOrder(
  deps: CcxtCancelDeps,
  target: CancelTarget,
): Promise<CancelResult> {
  const { venue, exchange, lookup, expiry } = deps;
  if (CANCEL_FROM_RECORD.has(venue)) {
    return cancelFromRecord({ venue, exchange, lookup }, target);
  }
  const orderId = await lookup.resolveOrderId(target);
  const unified = lookup.unifiedOf(target, orderId);
  const stamp = expiry.stamp('cancel');
  try {
    await expiry.cancelOrder(orderId, unified, stamp);
  } catch (error) {
    const mapped = toVenueError(error, venue);
    if (mapped instanceof VenueNetworkError) {
      throw unsettled(venue, mapped, expiry.settlesByMs(stamp));
    }
    if (mapped.code !== 'unknown_order') {
      throw mapped;
    }
    // "Not found" also means "already done" on most venues: tell the two apart.
    return { outcome: 'not_open', order: await lookup.order({ orderId, symbol: target.symbol }) };
  }
  let order = await lookup.order({ orderId, symbol: target.symbol }).catch(() => undefined);
  if (order && QUEUED_ACK.has(venue) && isResting(order)) {
    // The cancel was queued: its effect is the order closing.
    // A read that misses the closed order and finds no record of it yet learns nothing.
    const market = unified ?? lookup.marketOf(orderId);
    const read = () => lookup.readRecord(orderId, market);
    const first = await read();
    const settled =
      first && (await awaitQueued(first, read, (current) => current.status !== 'open'));
    order = settled ? lookup.seen(settled) : order;
  }
  return { outcome: 'canceled', order };
}
