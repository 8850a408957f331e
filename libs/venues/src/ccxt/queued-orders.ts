import type { Order } from 'ccxt';
import { OrderRejectedError, PostOnlyWouldCrossError, type VenueError } from '../errors';
import { sleep } from '@sts/platform';

/**
 * Venues that queue an order request and answer before matching it: Paradex
 * answers a placement `NEW` and a cancel 204, Extended a placement with the
 * order's ids only, Lighter a transaction hash (the order is found by its
 * client order index), and the order's fate (resting, filled, or closed with a
 * reason) follows. For each, when a read of the order shows that fate. The live client waits
 * for that fate, so a caller learns what a placement or cancel did as on
 * every other venue.
 */
export const QUEUED_ACK: ReadonlyMap<string, (order: Order, reads: number) => boolean> = new Map([
  // Paradex says so: the order is NEW until the engine took it.
  ['paradex', (order: Order) => !isQueued(order)],
  // Extended answers a placement with its ids only (ccxt calls it NEW) and a
  // resting order stays NEW: one read of the order after the answer is its fate.
  ['extended', (_order: Order, reads: number) => reads >= 1],
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
const POLL_MS = 20;

/** True while the venue has the order queued, not yet matched. */
export const isQueued = (order: Order): boolean => statusOf(order) === 'NEW';

/** Reads the order again until `done` says its queued request was acted on, or the wait ends. */
export async function awaitQueued(
  first: Order,
  read: () => Promise<Order>,
  done: (order: Order, reads: number) => boolean,
): Promise<Order> {
  let order = first;
  let reads = 0;
  const deadline = Date.now() + QUEUE_SETTLE_MS;
  while (!done(order, reads) && Date.now() < deadline) {
    if (reads > 0) {
      await sleep(POLL_MS, undefined, { ref: false });
    }
    order = await read();
    reads += 1;
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
  if (reason === 'NOT_ENOUGH_MARGIN' || reason === 'canceled-margin-not-allowed') {
    return new OrderRejectedError(
      venue,
      'insufficient_margin',
      `${venue} closed the order: ${String(reason)}`,
    );
  }
  return undefined;
}
