import type { Order } from 'ccxt';
import { RateLimitedError, VenueAuthError, VenueNetworkError, type VenueError } from '../errors';
import type { CancelResult, CancelTarget } from '../model/orders';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { toVenueError, unsettled } from './ccxt-errors';
import { unifiedStatusOf } from './ccxt-mapping';
import type { CcxtOrderLookup } from './ccxt-order-lookup';
import { awaitQueued } from './queued-orders';

/**
 * Venues whose answer to a cancel of an order no longer open is not
 * documented (Extended: the `cancel_not_open` reading of its dialect, an
 * error code, a bare 404 or a plain OK): the cancel's outcome is decided from
 * the venue's record of the order, read after the answer, never from its text.
 */
export const CANCEL_FROM_RECORD: ReadonlySet<string> = new Set(['extended']);

export interface CancelFromRecordDeps {
  venue: string;
  exchange: CcxtExchangeLike;
  lookup: CcxtOrderLookup;
}

/**
 * Cancels an order and says what the cancel did from the order's record:
 * still open after a refusal, the refusal stands (a lost answer stays
 * unsettled); closed, the order as the venue has it, `canceled` only when the
 * venue took the cancel and the order's last change (its cancellation) came
 * after the cancel was sent, else `not_open` (it had filled, expired, been
 * rejected or cancelled before). An order the venue does not know is an
 * UnknownOrderError, as the look-up says. Where the account stream tells an
 * order's end (CANCEL_FATE_ON_STREAM), a taken cancel's record is the order's
 * final update there when one came (or comes within a moment), and nothing
 * is read.
 */
export async function cancelFromRecord(
  deps: CancelFromRecordDeps,
  target: CancelTarget,
): Promise<CancelResult> {
  const { venue, exchange, lookup } = deps;
  const orderId = await lookup.resolveOrderId(target);
  const market = lookup.unifiedOf(target, orderId) ?? lookup.marketOf(orderId);
  const sentAtMs = Date.now();
  let refusal: VenueError | undefined;
  try {
    await exchange.cancelOrder(orderId, market);
  } catch (error) {
    refusal = toVenueError(error, venue);
    if (refusal instanceof RateLimitedError || refusal instanceof VenueAuthError) {
      throw refusal;
    }
  }
  // Taken: the order's closing update on the stream, where the venue sends one, is its record.
  const streamed = refusal === undefined ? await lookup.closingUpdate(orderId) : undefined;
  let record = streamed ?? (await readAfter(deps, orderId, market, refusal));
  if (unifiedStatusOf(record) === 'open') {
    if (refusal) {
      throw refusal instanceof VenueNetworkError ? unsettled(venue, refusal) : refusal;
    }
    // Taken: the cancel may be queued; its effect is the order closing.
    const read = () => lookup.fetch(orderId, market);
    record = await awaitQueued(record, read, (current) => unifiedStatusOf(current) !== 'open');
  }
  const order = lookup.seen(record);
  const ours =
    refusal === undefined &&
    order.status === 'canceled' &&
    (record.lastUpdateTimestamp ?? sentAtMs) >= sentAtMs;
  return { outcome: ours ? 'canceled' : 'not_open', order };
}

/** The order's record after the cancel's answer; a read lost (or after a lost answer) leaves the cancel unsettled. */
async function readAfter(
  deps: CancelFromRecordDeps,
  orderId: string,
  market: string | undefined,
  refusal: VenueError | undefined,
): Promise<Order> {
  try {
    return await deps.lookup.fetch(orderId, market);
  } catch (error) {
    if (refusal instanceof VenueNetworkError) {
      throw unsettled(deps.venue, refusal);
    }
    // The cancel was answered but what it did is unread: unsettled, like a lost answer.
    throw error instanceof VenueNetworkError ? unsettled(deps.venue, error) : error;
  }
}
