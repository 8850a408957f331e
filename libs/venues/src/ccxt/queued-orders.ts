import type { Order } from 'ccxt';
import { OrderRejectedError, PostOnlyWouldCrossError, type VenueError } from '../errors';
import { sleep } from '@sts/platform';
import { isFinal } from './ccxt-mapping';
import { ORDER_FATES } from './order-fate';

/** How a venue that queues order requests shows a placement's fate. */
export interface QueuedVenue {
  /** When a read of the order shows the venue acted on the placement (a resting order counts). */
  readonly readShowsFate: (order: Order) => boolean;
  /**
   * True where a post-only placement's fate is its first account-stream
   * update (Extended: a resting order is NEW there too, so a read showing NEW
   * tells nothing); reads back the stream up.
   */
  readonly streamFirst: boolean;
}

/**
 * Venues that queue an order request and answer before matching it: Paradex
 * answers a placement `NEW` and a cancel 204, Extended a placement with the
 * order's ids only, Lighter a transaction hash (the order is found by its
 * client order index), and the order's fate (resting, filled, or closed with a
 * reason) follows. The live client waits for that fate, so a caller learns
 * what a placement or cancel did as on every other venue. An IOC's fate is
 * only ever its final state (filled, canceled, expired, rejected): a queued,
 * new or pending IOC may still fill, whatever a read or the stream said first.
 */
export const QUEUED_ACK: ReadonlyMap<string, QueuedVenue> = new Map<string, QueuedVenue>([
  // Paradex says so: the order is NEW until the engine took it.
  ['paradex', { readShowsFate: (order: Order) => !isQueued(order), streamFirst: false }],
  // Extended answers a placement with its ids only (ccxt calls it NEW), and a
  // resting order is NEW too. The official SDK takes the order's first
  // account-stream update as its fate; a read past NEW (filled, rejected,
  // expired...) is one as well.
  ['extended', { readShowsFate: (order: Order) => !isQueued(order), streamFirst: true }],
  // Lighter answers a transaction hash: the order, once found, is pending
  // until a block executed it.
  [
    'lighter',
    {
      readShowsFate: (order: Order) => !LIGHTER_PENDING.has(String(statusOf(order))),
      streamFirst: false,
    },
  ],
]);

/** Lighter's statuses of an order its engine has not acted on yet. */
const LIGHTER_PENDING = new Set(['pending', 'in-progress']);

const statusOf = (order: Order): unknown =>
  (order.info as { status?: unknown } | undefined)?.status;

/** How long the client waits for a queued order's fate before it gives up waiting. */
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
/** First read of an order whose fate the stream tells, after this long; each later one after twice the wait. */
const STREAM_READ_AFTER_MS = 250;
const STREAM_LAST_READ_MS = 2_000;

/**
 * How long a post-only's NEW stream update must stand alone before it is
 * taken for resting, where a resting order is NEW too (Extended): a venue
 * may stream NEW before the fate of a request it has not matched yet (the
 * `stream_first=new_then_fate` reading), and the fate follows within moments.
 */
const NEW_STANDS_FOR_MS = 150;

/** A post-only's stream update that shows its fate: past NEW, or a NEW nothing followed. */
const restingOrDone = (order: Order): boolean =>
  !isQueued(order) || ORDER_FATES.ageOf(order) >= NEW_STANDS_FOR_MS;

/** True while the venue has the order queued, not yet matched. */
export const isQueued = (order: Order): boolean => statusOf(order) === 'NEW';

/**
 * A read of a queued order: the venue's record, or null when the venue no
 * longer shows it where it was read and no other record of it is readable
 * yet (Paradex's read by id serves open orders only): nothing is learnt.
 */
export type QueuedRead = () => Promise<Order | null>;

/**
 * Reads the order again until `done` says its queued request was acted on,
 * or the wait ends (the last record read is returned either way).
 */
export async function awaitQueued(
  first: Order,
  read: QueuedRead,
  done: (order: Order) => boolean,
): Promise<Order> {
  return awaitFate(first, read, {
    read: done,
    pollFromMs: FIRST_POLL_MS,
    pollUpToMs: LAST_POLL_MS,
  });
}

/**
 * The fate of a placement a queueing venue answered: for an IOC its final
 * state, for a post-only the venue acting on it (resting counts), from a
 * read or from the account stream (Extended's first update, for a
 * post-only). The last record is returned when the wait ends without one:
 * the caller tells an IOC's unknown fate from a fate.
 */
export function awaitPlacementFate(
  venue: string,
  first: Order,
  read: QueuedRead,
  options: { ioc: boolean },
): Promise<Order> {
  const queued = QUEUED_ACK.get(venue);
  if (!queued) {
    return Promise.resolve(first);
  }
  const readDone = options.ioc ? isFinal : queued.readShowsFate;
  const streamDone = options.ioc ? isFinal : queued.streamFirst ? restingOrDone : readDone;
  return awaitFate(first, read, {
    read: readDone,
    stream: { venue, accept: streamDone },
    pollFromMs: queued.streamFirst ? STREAM_READ_AFTER_MS : FIRST_POLL_MS,
    pollUpToMs: queued.streamFirst ? STREAM_LAST_READ_MS : LAST_POLL_MS,
  });
}

interface FateWait {
  read: (order: Order) => boolean;
  stream?: { venue: string; accept: (order: Order) => boolean };
  pollFromMs: number;
  pollUpToMs: number;
}

/**
 * Reads (and listens to the stream) until a record shows the fate waited
 * for, backing off between reads; a fate that comes in milliseconds is seen
 * at once, one that does not costs a few reads in the whole wait. The wait
 * cut short by the deadline is the last: a timer may fire a millisecond
 * early, and must not buy one more read.
 */
async function awaitFate(first: Order, read: QueuedRead, wait: FateWait): Promise<Order> {
  let order = first;
  if (wait.read(order)) {
    return order;
  }
  const placed = first.id ? { id: first.id, clientOrderId: first.clientOrderId } : undefined;
  const deadline = Date.now() + QUEUE_SETTLE_MS;
  let waitMs = wait.pollFromMs;
  for (let reads = 0; ; reads += 1) {
    const left = deadline - Date.now();
    if (reads > 0 && left <= 0) {
      break;
    }
    const pause = reads === 0 && !wait.stream ? 0 : Math.min(waitMs, Math.max(left, 0));
    const last = reads > 0 && left <= waitMs;
    if (pause > 0) {
      waitMs = Math.min(waitMs * 2, wait.pollUpToMs);
    }
    const streamed = await listen(wait, placed, pause);
    if (streamed) {
      return streamed;
    }
    order = (await read()) ?? order;
    if (wait.read(order) || last) {
      return order;
    }
  }
  return order;
}

/** The stream's update that shows the fate (waiting up to `ms`), or a plain pause where none is listened to. */
async function listen(
  wait: FateWait,
  placed: { id: string; clientOrderId?: string } | undefined,
  ms: number,
): Promise<Order | undefined> {
  if (!wait.stream || !placed) {
    if (ms > 0) {
      await sleep(ms, undefined, { ref: false });
    }
    return undefined;
  }
  return ORDER_FATES.next(wait.stream.venue, placed, ms, wait.stream.accept);
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
