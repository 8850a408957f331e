import type { Order } from 'ccxt';
import { sleep } from '@sts/platform';
import { encodeClientOrderId } from './client-order-ids';

/**
 * Orders whose latest update is kept (the stream may beat the placement's
 * answer): Hyperliquid's every order is kept too (CANCEL_FATE_ON_STREAM),
 * so a busy process's Paradex order still has its closing update a while
 * after it closed.
 */
const REMEMBERED_ORDERS = 10_000;

interface Waiter {
  accept: (order: Order) => boolean;
  resolve: (order: Order) => void;
}

/**
 * The account stream's latest word on each order of a venue that queues its
 * requests (Paradex, Extended, Lighter). A queued order's fate is the first
 * update that shows one: Extended's official SDK takes an order's first
 * account-stream update (x10xchange/python_sdk,
 * x10/perpetual/simple_client/simple_trading_client.py), but nothing the
 * venue documents says that update is the last, so a waiter says which
 * update it accepts (an IOC: only a final one). Kept per process and keyed
 * by venue, order id and our client order id: an order's updates come only
 * on its own account's stream, whichever client of the process watches it,
 * and the client id tells an order from another venue's (or an earlier
 * simulator's) order under the same id.
 */
export class OrderFates {
  private readonly latest = new Map<string, Order>();
  /** The key of each order by venue and client id, for a placement whose answer was lost. */
  private readonly byClientId = new Map<string, string>();
  private readonly waiters = new Map<string, Waiter[]>();
  /** Waiters for an order known only by our client id (a placement answered without its id). */
  private readonly clientIdWaiters = new Map<string, Waiter[]>();
  /** When each update was noted (its arrival, for a fate that is an update left alone a while). */
  private readonly notedAt = new WeakMap<Order, number>();

  /** An order update from the account stream. */
  note(venue: string, order: Order): void {
    if (!order.id) {
      return;
    }
    const key = keyOf(venue, order.id, order.clientOrderId);
    this.notedAt.set(order, Date.now());
    this.latest.delete(key);
    this.latest.set(key, order);
    if (order.clientOrderId) {
      const clientKey = `${venue}\n${order.clientOrderId}`;
      this.byClientId.set(clientKey, key);
      resolveWaiters(this.clientIdWaiters, clientKey, order);
    }
    if (this.latest.size > REMEMBERED_ORDERS) {
      const oldest = this.latest.keys().next().value as string;
      this.latest.delete(oldest);
      const [oldVenue, , oldClientId] = oldest.split('\n');
      if (this.byClientId.get(`${oldVenue}\n${oldClientId}`) === oldest) {
        this.byClientId.delete(`${oldVenue}\n${oldClientId}`);
      }
    }
    resolveWaiters(this.waiters, key, order);
  }

  /** How long ago an update was noted (Infinity for one that was not). */
  ageOf(order: Order): number {
    const at = this.notedAt.get(order);
    return at === undefined ? Number.POSITIVE_INFINITY : Date.now() - at;
  }

  /** The latest update of an order streamed so far, if any (by our encoded client id). */
  latestByClientId(venue: string, clientOrderId: string): Order | undefined {
    const key = this.byClientId.get(`${venue}\n${clientOrderId}`);
    return key === undefined ? undefined : this.latest.get(key);
  }

  /** The latest update of an order streamed so far, if any. */
  latestOf(venue: string, placed: { id: string; clientOrderId?: string }): Order | undefined {
    return this.latest.get(keyOf(venue, placed.id, placed.clientOrderId));
  }

  /**
   * The first update of an order that `accept` takes (the latest seen, or one
   * to come), or undefined when none came within `ms`. The latest is asked
   * again when the wait ends: a taker may accept an update by its age (a
   * post-only's NEW left alone a while, `restingOrDone`), and one that came
   * early in the wait is old enough by then.
   */
  next(
    venue: string,
    placed: { id: string; clientOrderId?: string },
    ms: number,
    accept: (order: Order) => boolean,
  ): Promise<Order | undefined> {
    const key = keyOf(venue, placed.id, placed.clientOrderId);
    return firstAccepted(this.waiters, key, () => this.latest.get(key), accept, ms);
  }

  /**
   * The first update that `accept` takes of an order known so far by our
   * encoded client id only (Lighter answers a placement with a transaction
   * hash): the latest seen, or the first to come within `ms`, or undefined.
   * An id may be carried by another order of ours before it (Lighter keeps
   * 48 bits of it): `accept` tells this placement's updates from those.
   */
  firstByClientId(
    venue: string,
    clientOrderId: string,
    ms: number,
    accept: (order: Order) => boolean,
  ): Promise<Order | undefined> {
    const latest = () => this.latestByClientId(venue, clientOrderId);
    return firstAccepted(this.clientIdWaiters, `${venue}\n${clientOrderId}`, latest, accept, ms);
  }
}

/**
 * The latest update if `accept` takes it, else the first under `key` it
 * takes within `ms` (the latest asked again as the wait ends), else
 * undefined. Nothing is awaited where there is no time to wait (a stream
 * down, an IOC's placement).
 */
async function firstAccepted(
  waiters: Map<string, Waiter[]>,
  key: string,
  latest: () => Order | undefined,
  accept: (order: Order) => boolean,
  ms: number,
): Promise<Order | undefined> {
  const seen = latest();
  if (seen && accept(seen)) {
    return seen;
  }
  if (ms <= 0) {
    return undefined;
  }
  const order = await awaitWaiter(waiters, key, accept, ms);
  const last = order ?? latest();
  return last && accept(last) ? last : undefined;
}

/** Resolves the waiters under `key` that take `order`; the others keep waiting. */
function resolveWaiters(waiters: Map<string, Waiter[]>, key: string, order: Order): void {
  const waiting = waiters.get(key);
  if (!waiting) {
    return;
  }
  const left = waiting.filter((waiter) => !waiter.accept(order));
  waiting.filter((waiter) => waiter.accept(order)).forEach((waiter) => waiter.resolve(order));
  if (left.length > 0) {
    waiters.set(key, left);
  } else {
    waiters.delete(key);
  }
}

/** The first update under `key` that `accept` takes within `ms`, or undefined; the waiter is removed either way. */
async function awaitWaiter(
  waiters: Map<string, Waiter[]>,
  key: string,
  accept: (order: Order) => boolean,
  ms: number,
): Promise<Order | undefined> {
  let waiter: Waiter | undefined;
  const streamed = new Promise<Order>((resolve) => {
    waiter = { accept, resolve };
    waiters.set(key, [...(waiters.get(key) ?? []), waiter]);
  });
  const timedOut = sleep(ms, undefined, { ref: false }).then(() => undefined);
  const order = await Promise.race([streamed, timedOut]);
  const left = (waiters.get(key) ?? []).filter((other) => other !== waiter);
  if (left.length > 0) {
    waiters.set(key, left);
  } else {
    waiters.delete(key);
  }
  return order;
}

const keyOf = (venue: string, orderId: string, clientOrderId: string | undefined): string =>
  `${venue}\n${orderId}\n${clientOrderId ?? ''}`;

/**
 * Venues whose account stream carries each order's closing update with what
 * it filled, which this client takes for a cancel's outcome instead of
 * reading the order back. Hyperliquid's `orderUpdates` ends an order with
 * `canceled` (or `filled`), its original size and what was left
 * (`origSz`, `sz`): ccxt reads the difference as filled. Its `orderStatus`
 * read weighs 2 of the 1,200 a minute every account on one egress shares,
 * and one followed every cancel of every re-quote (the egress bench: a
 * third of the address's weight). Paradex's cancel page says the
 * confirmation of a queued cancel (its 204) "will be sent via websocket";
 * its `orders` channel closes an order `CLOSED` with `size` and
 * `remaining_size` (ccxt reads the difference as filled). A read of it
 * weighs a token of P5 (600 a minute an account), three of the budget's
 * tokens to a cancel's one: under a trade's share of two a second, the
 * read after every cancel held each re-quote for seconds. Only a final
 * update is taken; one that is not the last (an order still open) never is.
 */
export const CANCEL_FATE_ON_STREAM: ReadonlySet<string> = new Set([
  'hyperliquid',
  'paradex',
  // Extended's official SDK waits for the account stream after a cancel too
  // (x10/perpetual/simple_client/simple_trading_client.py cancel_order); its
  // order updates carry the status, `filledQty` and `updatedTime` a read
  // would. The answer to a cancel of a closed order is unpublished, so only
  // a taken cancel learns its end there (order-fate-cancel.ts): a refused one
  // is read back as before.
  'extended',
  // Aster's user data stream ends an order with ORDER_TRADE_UPDATE, `X`
  // CANCELED (or FILLED, EXPIRED) and `z` what it filled in all
  // (asterdex/api-docs, futures v3, "Event: Order Update"); a read weighs 1
  // of A1 (2,400 a minute every account of the address shares).
  'aster',
  // Lighter's `account_all_orders` stream sends each order's state as its
  // transaction executes (`status` canceled, filled or another canceled-*
  // reason, with `filled_base_amount`; apidocs.lighter.xyz, "WebSocket
  // reference"); a read of the account's orders weighs 300 of L1 (24,000 a
  // minute an L1 address), and the client read both the active and the
  // inactive orders after every cancel. A cancel is a transaction the
  // sequencer executes later (LIGHTER_STREAM_FATE_WAIT_MS).
  'lighter',
]);

/**
 * How long a cancel waits for the order's closing update on the stream
 * before it reads the order instead (Lighter: LIGHTER_STREAM_FATE_WAIT_MS):
 * the stream's update and the cancel's answer leave the venue with the same
 * block, so it is normally there already or within a few ms.
 */
export const STREAM_FATE_WAIT_MS = 150;

/**
 * Lighter's placements and cancels are transactions its sequencer executes
 * after the answer: "maker and cancel 0 ms on Premium, 200 ms on Standard"
 * (apidocs.lighter.xyz/docs/account-types), and the dialect's
 * `order_queue=held` reading holds them 300 ms. The order's update is waited
 * for past both, with room for a loaded process, before a read.
 */
export const LIGHTER_STREAM_FATE_WAIT_MS = 1_000;

/**
 * How long an order's update is waited for on `venue`'s account stream
 * before it is read: none while the stream is down (only an update already
 * seen serves then).
 */
export function streamFateWaitMs(venue: string, streamUp: boolean): number {
  if (!streamUp) {
    return 0;
  }
  return venue === 'lighter' ? LIGHTER_STREAM_FATE_WAIT_MS : STREAM_FATE_WAIT_MS;
}

/** The process's record of account-stream order updates (fed by CcxtAccountEvents). */
export const ORDER_FATES = new OrderFates();

/**
 * A post-only placement's order as its first update on the stream shows
 * it, where the venue answered the placement without naming the order
 * (Lighter's transaction hash) and its stream tells fates
 * (CANCEL_FATE_ON_STREAM): a read of the account's orders weighs 300 of
 * Lighter's L1, and a maker order's placement is every re-quote's. Only an
 * update noted since the placement was sent, of an order id not already
 * ours under another client id (`clientIdOf`), counts: Lighter keeps 48
 * bits of our id, so two maker orders of a trade may share an index.
 * Undefined where none came within `waitMs` (`streamFateWaitMs`): read it.
 */
export function placedOnStream(
  venue: string,
  placed: { clientOrderId: string; sentAtMs: number },
  waitMs: number,
  clientIdOf: (orderId: string) => string,
): Promise<Order | undefined> {
  if (!CANCEL_FATE_ON_STREAM.has(venue)) {
    return Promise.resolve(undefined);
  }
  const ours = (order: Order): boolean =>
    ORDER_FATES.ageOf(order) <= Date.now() - placed.sentAtMs &&
    !!order.id &&
    (clientIdOf(order.id) || placed.clientOrderId) === placed.clientOrderId;
  const encoded = String(encodeClientOrderId(venue, placed.clientOrderId));
  return ORDER_FATES.firstByClientId(venue, encoded, waitMs, ours);
}
