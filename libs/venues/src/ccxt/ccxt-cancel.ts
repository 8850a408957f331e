import { isResting, type BatchAnswer, type CancelResult, type CancelTarget } from '../model/orders';
import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { toVenueError, unsettled } from './ccxt-errors';
import { unifiedStatusOf } from './ccxt-mapping';
import type { CcxtOrderLookup } from './ccxt-order-lookup';
import type { OrderRequestExpiry, RequestStamp } from './order-expiry';
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
 * Where the account stream tells a closed order's fill (Hyperliquid), its
 * closing update is the outcome and nothing is read.
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
  const resolved = await resolvedTarget(deps, target);
  const stamp = expiry.stamp('cancel');
  const sent: Sent = await expiry.cancelOrder(resolved.orderId, resolved.unified, stamp).then(
    () => ({ ok: true }),
    (error: unknown) => ({ ok: false, error }),
  );
  return cancelOutcome(deps, resolved, stamp, sent);
}

/**
 * Cancels in batched requests (order-expiry.ts `cancelOrders`), each
 * answered as `cancelOrder` would answer it alone: its status in the
 * batch's answer settled the same way. An order whose market is not known
 * (no symbol given, never seen) is cancelled alone.
 */
export async function cancelOrders(
  deps: CcxtCancelDeps,
  targets: readonly CancelTarget[],
): Promise<Array<BatchAnswer<CancelResult>>> {
  const resolved = await Promise.all(
    targets.map((target) =>
      resolvedTarget(deps, target).then(
        (found) => ({ found }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
  const batched = resolved.flatMap((one) =>
    'found' in one && one.found.unified !== undefined
      ? [{ ...one.found, unified: one.found.unified }]
      : [],
  );
  const stamp = deps.expiry.stamp('cancel');
  const answers =
    batched.length === 0
      ? []
      : await deps.expiry
          .cancelOrders(batched, stamp)
          .catch((error: unknown) => batched.map(() => ({ error })));
  return Promise.all(
    resolved.map(async (one, index): Promise<BatchAnswer<CancelResult>> => {
      try {
        if ('error' in one) {
          throw one.error;
        }
        const at = batched.findIndex((entry) => entry.target === one.found.target);
        if (at < 0) {
          return { ok: true, value: await cancelOrder(deps, targets[index]!) };
        }
        const answer = answers[at]!;
        const sent: Sent = 'value' in answer ? { ok: true } : { ok: false, error: answer.error };
        return { ok: true, value: await cancelOutcome(deps, one.found, stamp, sent) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
}

/** What sending a cancel came to: taken, or its error. */
type Sent = { ok: true } | { ok: false; error: unknown };

/** A cancel's target as the venue knows it: its order id and market. */
interface Resolved {
  target: CancelTarget;
  orderId: string;
  unified: string | undefined;
}

async function resolvedTarget(deps: CcxtCancelDeps, target: CancelTarget): Promise<Resolved> {
  const orderId = await deps.lookup.resolveOrderId(target);
  return { target, orderId, unified: deps.lookup.unifiedOf(target, orderId) };
}

/**
 * A sent cancel's outcome: `canceled` with the order as it closed (the
 * stream's closing update, a read, or the queued cancel awaited), or
 * `not_open` where the venue no longer had it; a lost answer's fate is
 * unknown until the request can no longer act.
 */
async function cancelOutcome(
  deps: CcxtCancelDeps,
  resolved: Resolved,
  stamp: RequestStamp,
  sent: Sent,
): Promise<CancelResult> {
  const { venue, lookup, expiry } = deps;
  const { target, orderId, unified } = resolved;
  if (!sent.ok) {
    const mapped = toVenueError(sent.error, venue);
    if (mapped instanceof VenueNetworkError) {
      throw unsettled(venue, mapped, expiry.settlesByMs(stamp));
    }
    if (mapped.code !== 'unknown_order') {
      throw mapped;
    }
    // "Not found" also means "already done" on most venues: tell the two apart.
    const closed = await lookup.closedOnStream(orderId);
    return {
      outcome: 'not_open',
      order: closed ?? (await lookup.order({ orderId, symbol: target.symbol })),
    };
  }
  let order =
    (await lookup.closedOnStream(orderId)) ??
    (await lookup.order({ orderId, symbol: target.symbol }).catch(() => undefined));
  if (order && QUEUED_ACK.has(venue) && isResting(order)) {
    // The cancel was queued: its effect is the order closing.
    // A read that misses the closed order and finds no record of it yet learns nothing.
    const market = unified ?? lookup.marketOf(orderId);
    const read = () => lookup.readRecord(orderId, market);
    const first = await read();
    const settled =
      first && (await awaitQueued(first, read, (current) => unifiedStatusOf(current) !== 'open'));
    order = settled ? lookup.seen(settled) : order;
  }
  return { outcome: 'canceled', order };
}
