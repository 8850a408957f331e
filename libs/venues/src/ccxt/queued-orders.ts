import type { Order } from 'ccxt';
import { OrderRejectedError, PostOnlyWouldCrossError, type VenueError } from '../errors';
import { sleep } from '@sts/platform';
import { ORDER_FATES } from './order-fate';

/** A venue whose order's fate is its first account-stream update (reads confirm only what is past NEW). */
export interface StreamFate {
  fromStream: string;
}

/** When a queued order's fate is known: from a read (and how many were made), or from the stream. */
export type QueuedFate = ((order: Order, reads: number) => boolean) | StreamFate;

/**
 * Venues that queue an order request and answer before matching it: Paradex
 * answers a placement `NEW` and a cancel 204, Extended a placement with the
 * order's ids only, Lighter a transaction hash (the order is found by its
 * client order index), and the order's fate (resting, filled, or closed with a
 * reason) follows. For each, when a read of the order shows that fate. The live client waits
 * for that fate, so a caller learns what a placement or cancel did as on
 * every other venue.
 */
export const QUEUED_ACK: ReadonlyMap<string, QueuedFate> = new Map<string, QueuedFate>([
  // Paradex says so: the order is NEW until the engine took it.
  ['paradex', (order: Order) => !isQueued(order)],
  // Extended answers a placement with its ids only (ccxt calls it NEW), and a
  // resting order is NEW too: a read showing NEW tells nothing. The official
  // SDK takes the order's first account-stream update as its fate; a read
  // past NEW (filled, rejected, expired...) is one as well.
  ['extended', { fromStream: 'extended' }],
  // Lighter answers a transaction hash: the order, once found, is pending
  // until a block executed it.
  ['lighter', (order: Order) => !LIGHTER_PENDING.has(String(statusOf(order)))],
]);

/** Lighter's statuses of an order its engine has not acted on yet. */
const LIGHTER_PENDING = new Set(['pending', 'in-progress']);

const statusOf = (order: Order): unknown =>
  (order.info as { status?: unknown } | undefined)?.status;

/** How long the client waits for a queued order's fate before it takes the order as resting. */
export const QUEUE_SETTLE_MS = 5_000;
/**
 * Reads of a queued order: the second 20 ms after the first, each later one
 * after twice the wait before, up to 640 ms. A fate that comes in
 * milliseconds (an IOC matched at once) is seen at once; one that does not
 * costs at most 13 reads in the whole wait, where a read every 20 ms cost
 * 250: Paradex allows an account 600 reads a minute (P5), and each read is
 * paid from the trade's budget at what the venue weighs it.
 */
const FIRST_POLL_MS = 20;
const LAST_POLL_MS = 640;

/** True while the venue has the order queued, not yet matched. */
export const isQueued = (order: Order): boolean => statusOf(order) === 'NEW';

/** First read of an order whose fate the stream tells, after this long; each later one after twice the wait. */
const STREAM_READ_AFTER_MS = 250;

/** Reads the order again until `done` says its queued request was acted on, or the wait ends. */
export async function awaitQueued(
  first: Order,
  read: () => Promise<Order>,
  done: QueuedFate,
): Promise<Order> {
  if (typeof done !== 'function') {
    return awaitStreamFate(first, read, done.fromStream);
  }
  let order = first;
  let reads = 0;
  let waitMs = FIRST_POLL_MS;
  const deadline = Date.now() + QUEUE_SETTLE_MS;
  let last = false;
  while (!done(order, reads) && !last) {
    if (reads > 0) {
      const left = deadline - Date.now();
      if (left <= 0) {
        break;
      }
      // The wait cut short by the deadline is the last: a timer may fire a
      // millisecond early, and must not buy one more read.
      last = left <= waitMs;
      await sleep(Math.min(waitMs, left), undefined, { ref: false });
      waitMs = Math.min(waitMs * 2, LAST_POLL_MS);
    }
    order = await read();
    reads += 1;
  }
  return order;
}

/**
 * A placement's fate from the account stream (its first update), or from a
 * read that shows more than NEW. Reads are few (the first after 250 ms, then
 * doubling: four within the wait), for a stream that lags or is down. With
 * neither past NEW within the wait, the order is taken as resting: a later
 * stream update still tells its owner what became of it.
 */
async function awaitStreamFate(
  first: Order,
  read: () => Promise<Order>,
  venue: string,
): Promise<Order> {
  const id = first.id;
  if (!id) {
    return first;
  }
  let order = first;
  let waitMs = STREAM_READ_AFTER_MS;
  const deadline = Date.now() + QUEUE_SETTLE_MS;
  for (let left = QUEUE_SETTLE_MS; left > 0; left = deadline - Date.now()) {
    const placed = { id, clientOrderId: first.clientOrderId };
    const streamed = await ORDER_FATES.first(venue, placed, Math.min(waitMs, left));
    if (streamed) {
      return streamed;
    }
    if (Date.now() >= deadline) {
      break;
    }
    order = await read();
    if (!isQueued(order)) {
      return order;
    }
    waitMs *= 2;
  }
  return order;
}

/** The refusal a queued placement met, from the reason the venue closed it for. */
export function queuedRefusal(order: Order, venue: string): VenueError | undefined {
  const info = order.info as
    { cancel_reason?: unknown; statusReason?: unknown; status?: unknown } | undefined;
  // Paradex's cancel_reason, Extended's statusReason, Lighter's status.
  const reason = info?.cancel_reason ?? info?.statusReason ?? info?.status;
  if (
    reason === 'POST_ONLY_WOULD_CROSS' ||
    reason === 'POST_ONLY_FAILED' ||
    reason === 'canceled-post-only'
  ) {
    return new PostOnlyWouldCrossError(venue, `${venue} closed the order: ${String(reason)}`);
  }
  if (
    reason === 'NOT_ENOUGH_MARGIN' ||
    reason === 'NOT_ENOUGH_FUNDS' ||
    reason === 'canceled-margin-not-allowed'
  ) {
    return new OrderRejectedError(
      venue,
      'insufficient_margin',
      `${venue} closed the order: ${String(reason)}`,
    );
  }
  // Paradex publishes no list of cancel reasons: a post-only order it closed
  // at once with nothing filled, and not by a cancel, is refused whatever the word.
  const shown = info as { instruction?: unknown; size?: unknown; remaining_size?: unknown };
  if (
    venue === 'paradex' &&
    info?.status === 'CLOSED' &&
    shown.instruction === 'POST_ONLY' &&
    reason !== 'USER_CANCELED' &&
    Number(shown.remaining_size) === Number(shown.size)
  ) {
    return new PostOnlyWouldCrossError(venue, `${venue} closed the order: ${String(reason)}`);
  }
  if (venue === 'extended' && info?.status === 'REJECTED') {
    // Extended's other reasons (INVALID_PRICE, INVALID_QTY, ...): refused, never placed.
    return new OrderRejectedError(
      venue,
      'invalid_order',
      `${venue} rejected the order: ${String(reason)}`,
    );
  }
  return undefined;
}
