import type { Order } from 'ccxt';
import { OrderRejectedError, PostOnlyWouldCrossError, type VenueError } from '../errors';

/**
 * Venues that queue an order request and answer before matching it: Paradex
 * answers a placement `NEW` and a cancel 204, and the order's fate (resting,
 * filled, or closed with a `cancel_reason`) follows. The live client waits
 * for that fate, so a caller learns what a placement or cancel did as on
 * every other venue.
 */
export const QUEUED_ACK = new Set(['paradex']);

/** How long the client waits for a queued order's fate before it takes the order as resting. */
export const QUEUE_SETTLE_MS = 5_000;
const POLL_MS = 20;

/** True while the venue has the order queued, not yet matched. */
export const isQueued = (order: Order): boolean =>
  (order.info as { status?: unknown } | undefined)?.status === 'NEW';

/** Reads the order again until `done` says its queued request was acted on, or the wait ends. */
export async function awaitQueued(
  first: Order,
  read: () => Promise<Order>,
  done: (order: Order) => boolean,
): Promise<Order> {
  let order = first;
  const deadline = Date.now() + QUEUE_SETTLE_MS;
  while (!done(order) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
    order = await read();
  }
  return order;
}

/** The refusal a queued placement met, from the reason the venue closed it for. */
export function queuedRefusal(order: Order, venue: string): VenueError | undefined {
  const reason = (order.info as { cancel_reason?: unknown } | undefined)?.cancel_reason;
  if (reason === 'POST_ONLY_WOULD_CROSS')
    return new PostOnlyWouldCrossError(venue, `${venue} closed the order: ${reason}`);
  if (reason === 'NOT_ENOUGH_MARGIN')
    return new OrderRejectedError(
      venue,
      'insufficient_margin',
      `${venue} closed the order: ${reason}`,
    );
  return undefined;
}
