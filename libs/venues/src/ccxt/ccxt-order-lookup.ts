import type { Order, Trade } from 'ccxt';
import { sleep } from '@sts/platform';
import { UnknownOrderError, VenueError, VenueNetworkError } from '../errors';
import type { CancelTarget, VenueOrder } from '../model/orders';
import type { CcxtAccountEvents } from './ccxt-account-events';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { unsettled, venueCall } from './ccxt-errors';
import type { CcxtMarketCache } from './ccxt-market-cache';
import { isFinal, venueClientOrderIdOf } from './ccxt-mapping';
import { encodeClientOrderId } from './client-order-ids';
import type { OrderTracker } from './order-tracker';
import { CANCEL_FATE_ON_STREAM, ORDER_FATES, streamFateWaitMs, placedOnStream } from './order-fate';
import { QUEUE_SETTLE_MS } from './queued-orders';

/**
 * Venues whose ccxt fetchOrder looks an order up by the client order id we
 * gave it (Hyperliquid's orderStatus by cloid, Aster's origClientOrderId,
 * Paradex's orders/by_client_id, Extended's orders/external, Lighter's active
 * and inactive orders by client order index); proven against their dialects.
 */
const LOOKUP_BY_CLIENT_ID = new Set(['hyperliquid', 'aster', 'paradex', 'extended', 'lighter']);

/**
 * Of those, venues whose look-up by client id finds open orders only:
 * Paradex's `GET /orders/by_client_id/{client_id}` "Only returns orders in
 * OPEN status" (https://docs.paradex.trade/api/prod/orders/get-by-client-id).
 * A miss there is settled from the venue's order history filtered by that
 * client id (`GET /orders-history?client_id=`, ccxt's fetchOrders), which
 * holds closed orders too: an IOC that filled before its answer was lost.
 */
const OPEN_ONLY_BY_CLIENT_ID = new Set(['paradex']);

/**
 * Venues whose read of an order by its id serves open (and queued) orders
 * only: Paradex's `GET /orders/{order_id}` "Only return orders in OPEN or
 * NEW status" (https://docs.paradex.trade/api/prod/orders/get). A miss
 * there means the order closed, not what it filled: its record is read from
 * the account stream's latest update or the order history by client id,
 * and until one of them shows it closed nothing is learnt.
 */
const OPEN_ONLY_BY_ID = new Set(['paradex']);

/** ccxt's fetchOrders, which CcxtExchangeLike leaves out (Paradex's orders-history). */
type WithOrderHistory = CcxtExchangeLike & {
  fetchOrders(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<Order[]>;
};

/** How often a placement not yet shown by the venue is looked for. */
const PLACED_POLL_MS = 20;

/** Orders whose market the client remembers for calls by order id alone. */
const REMEMBERED_ORDERS = 10_000;

/** Venues whose ccxt fetchOpenOrders needs a market (Lighter's accountActiveOrders): all are read one by one. */
const OPEN_ORDERS_PER_MARKET = new Set(['lighter']);

export interface CcxtOrderLookupDeps {
  venue: string;
  exchange: CcxtExchangeLike;
  markets: CcxtMarketCache;
  tracker: OrderTracker;
  account: CcxtAccountEvents;
  /** Loads the venue's markets (once), its failure a VenueError. */
  loadMarkets: () => Promise<unknown>;
}

/**
 * Where the venue keeps an order and what it is called there: the venue's
 * order id for our client order id (tracked, looked up by client id where
 * the venue can, else found among open orders), the market of an order for
 * calls by id alone, and the venue's record of an order.
 */
export class CcxtOrderLookup {
  /** ccxt symbol of each order seen, for calls by order id alone (Aster's need a symbol). */
  private readonly marketOfOrder = new Map<string, string>();

  constructor(private readonly deps: CcxtOrderLookupDeps) {}

  /** Maps a ccxt order, remembering its market for later calls by order id. */
  seen(order: Order): VenueOrder {
    if (order.id && order.symbol && !this.marketOfOrder.has(order.id)) {
      this.marketOfOrder.set(order.id, order.symbol);
      // The oldest go first: a long-running account places orders without end.
      if (this.marketOfOrder.size > REMEMBERED_ORDERS) {
        this.marketOfOrder.delete(this.marketOfOrder.keys().next().value as string);
      }
    }
    return this.deps.account.order(order);
  }

  /** The ccxt market of an order seen before, if remembered. */
  marketOf(orderId: string): string | undefined {
    return this.marketOfOrder.get(orderId);
  }

  unifiedOf(target: CancelTarget, orderId: string): string | undefined {
    return target.symbol
      ? this.deps.markets.unified(target.symbol)
      : this.marketOfOrder.get(orderId);
  }

  /**
   * The venue's record of an order by its id, its failure a VenueError. Where
   * the read serves open orders only and the order closed, the record comes
   * from the stream or the history; readable from neither yet, the read is
   * undecided: a VenueNetworkError (ask again), never "unknown order".
   */
  async fetch(orderId: string, unified: string | undefined): Promise<Order> {
    const record = await this.readRecord(orderId, unified);
    if (!record) {
      throw new VenueNetworkError(
        this.deps.venue,
        `order ${orderId} is no longer open and its closed record is not readable yet`,
      );
    }
    return record;
  }

  /**
   * The venue's record of an order by its id, or null where the venue's read
   * by id serves open orders only, missed it, and no closed record of it is
   * readable yet (the stream's latest update, the history by client id).
   */
  async readRecord(orderId: string, unified: string | undefined): Promise<Order | null> {
    const { venue, exchange } = this.deps;
    try {
      return await this.call(() => exchange.fetchOrder(orderId, unified));
    } catch (error) {
      if (!OPEN_ONLY_BY_ID.has(venue) || !isOrderIdMiss(error)) {
        throw error;
      }
    }
    return this.closedRecord(orderId, unified);
  }

  /**
   * The order's closing update from the account stream, where the venue's
   * stream tells what a closed order filled (CANCEL_FATE_ON_STREAM): the one
   * seen, or one within the venue's wait (streamFateWaitMs); else undefined (read it).
   */
  async closedOnStream(orderId: string): Promise<VenueOrder | undefined> {
    const closed = await this.closingUpdate(orderId);
    return closed && this.seen(closed);
  }

  /** The order's closing update as ccxt parsed it, where the venue's stream tells it (see `closedOnStream`). */
  async closingUpdate(orderId: string): Promise<Order | undefined> {
    const { venue } = this.deps;
    const encoded = this.encodedClientIdOf(orderId);
    if (!CANCEL_FATE_ON_STREAM.has(venue) || !encoded) {
      return undefined;
    }
    const waitMs = streamFateWaitMs(venue, this.deps.account.streamUp());
    return ORDER_FATES.next(venue, { id: orderId, clientOrderId: encoded }, waitMs, isFinal);
  }

  /** Our client id of an order this client placed, as the venue carries it (undefined: not ours). */
  private encodedClientIdOf(orderId: string): string | undefined {
    const clientOrderId = this.deps.tracker.clientOrderIdOf(orderId);
    return clientOrderId ? String(encodeClientOrderId(this.deps.venue, clientOrderId)) : undefined;
  }

  /** A closed order's record where the read by id misses it: the stream's, else the history's. */
  private async closedRecord(orderId: string, unified: string | undefined): Promise<Order | null> {
    const { venue } = this.deps;
    const encoded = this.encodedClientIdOf(orderId);
    const streamed = ORDER_FATES.latestOf(venue, { id: orderId, clientOrderId: encoded });
    if (streamed && isFinal(streamed)) {
      return streamed;
    }
    if (!encoded || unified === undefined) {
      return null;
    }
    const history = await this.history(encoded, unified);
    const found = history.find((order) => order.id === orderId);
    return found && isFinal(found) ? found : null;
  }

  /** The venue's order history filtered by our encoded client id (Paradex's orders-history). */
  private history(encoded: string, unified: string): Promise<Order[]> {
    return this.call(() =>
      (this.deps.exchange as WithOrderHistory).fetchOrders(unified, undefined, undefined, {
        client_id: encoded,
      }),
    );
  }

  async order(target: CancelTarget): Promise<VenueOrder> {
    const unified = target.symbol ? this.deps.markets.unified(target.symbol) : undefined;
    if ('clientOrderId' in target && !this.deps.tracker.orderIdOf(target.clientOrderId)) {
      const found = await this.orderByClientId(target.clientOrderId, unified);
      if (found) {
        return this.seen(found);
      }
    }
    const orderId = await this.resolveOrderId(target);
    const market = unified ?? this.marketOfOrder.get(orderId);
    return this.seen(await this.fetch(orderId, market));
  }

  async openOrders(symbol?: string): Promise<VenueOrder[]> {
    const { exchange, markets } = this.deps;
    if (!symbol && OPEN_ORDERS_PER_MARKET.has(this.deps.venue)) {
      if (!markets.loaded) {
        await this.deps.loadMarkets();
      }
      const orders: VenueOrder[] = [];
      for (const unified of markets.allUnified()) {
        const open = await this.call(() => exchange.fetchOpenOrders(unified));
        orders.push(...open.map((order) => this.seen(order)));
      }
      return orders;
    }
    const unified = symbol ? markets.unified(symbol) : undefined;
    const orders = await this.call(() => exchange.fetchOpenOrders(unified));
    return orders.map((order) => this.seen(order));
  }

  /**
   * Our client order id for every order of these fills, also for orders this
   * client never placed (a worker that took over a dead one's trades): from
   * the venue's own client id on the fill where it carries one (Hyperliquid's
   * `cloid`), else by looking the order up (one request per order, then
   * remembered). A fill without our id would not be counted as its trade's:
   * a hedge filled before a crash would be sent again.
   */
  async learnOrdersOf(trades: readonly Trade[]): Promise<void> {
    const { tracker } = this.deps;
    const unknown = new Map<string, string | undefined>();
    for (const trade of trades) {
      const orderId = trade.order;
      if (!orderId || tracker.clientOrderIdOf(orderId) || unknown.has(orderId)) {
        continue;
      }
      const carried = venueClientOrderIdOf(trade);
      if (carried) {
        tracker.track(orderId, tracker.decode(carried));
      } else {
        unknown.set(orderId, trade.symbol ?? undefined);
      }
    }
    for (const [orderId, unified] of unknown) {
      this.seen(await this.fetch(orderId, unified));
    }
  }

  async resolveOrderId(target: CancelTarget): Promise<string> {
    if ('orderId' in target) {
      return target.orderId;
    }
    const known = this.deps.tracker.orderIdOf(target.clientOrderId);
    if (known) {
      return known;
    }
    const unified = target.symbol ? this.deps.markets.unified(target.symbol) : undefined;
    const looked = await this.orderByClientId(target.clientOrderId, unified);
    if (looked?.id) {
      return looked.id;
    }
    const encoded = String(encodeClientOrderId(this.deps.venue, target.clientOrderId));
    const open = await this.openOrders(target.symbol);
    const found = open.find(
      (order) => order.clientOrderId === target.clientOrderId || order.clientOrderId === encoded,
    );
    if (!found) {
      throw new UnknownOrderError(
        this.deps.venue,
        `no order with client order id ${target.clientOrderId}`,
      );
    }
    return found.orderId;
  }

  /**
   * A placement the venue took without naming the order (Lighter's tx hash):
   * a post-only's first update on the stream (`placedOnStream`), else the
   * venue's record looked up by our client order id until it shows (an IOC's
   * at once). Not shown within the settle window, its outcome is unknown,
   * like a lost answer's: the caller settles it later by looking again.
   */
  async placedOrder(
    clientOrderId: string,
    unified: string,
    options: { ioc: boolean; sentAtMs: number },
  ): Promise<Order & { id: string }> {
    const { venue, tracker, account } = this.deps;
    const placed = { clientOrderId, sentAtMs: options.sentAtMs };
    // An IOC's order is never waited for on the stream: only an update already seen serves.
    const waitMs = options.ioc ? 0 : streamFateWaitMs(venue, account.streamUp());
    const streamed = await placedOnStream(venue, placed, waitMs, (id) =>
      tracker.clientOrderIdOf(id),
    );
    if (streamed?.id) {
      return streamed as Order & { id: string };
    }
    const deadline = Date.now() + QUEUE_SETTLE_MS;
    for (;;) {
      try {
        const order = await this.orderByClientId(clientOrderId, unified);
        if (order?.id) {
          return order as Order & { id: string };
        }
      } catch (error) {
        if (!(error instanceof UnknownOrderError)) {
          throw error;
        }
      }
      if (Date.now() >= deadline) {
        throw unsettled(
          this.deps.venue,
          new VenueNetworkError(
            this.deps.venue,
            `the venue took the placement of ${clientOrderId} but has not shown the order yet`,
          ),
        );
      }
      await sleep(PLACED_POLL_MS, undefined, { ref: false });
    }
  }

  /**
   * The venue's record of an order by our client order id, open or closed,
   * where the venue can look one up that way (`LOOKUP_BY_CLIENT_ID`): after a
   * lost answer, an IOC that filled and closed must be found, or it would be
   * taken for never placed and hedged again. Undefined where the venue has no
   * such look-up (the caller then scans open orders); UnknownOrderError when
   * the venue says it has no such order.
   */
  private async orderByClientId(
    clientOrderId: string,
    unified: string | undefined,
  ): Promise<Order | undefined> {
    const { venue, tracker } = this.deps;
    if (!LOOKUP_BY_CLIENT_ID.has(venue) || unified === undefined) {
      return undefined;
    }
    const encoded = String(encodeClientOrderId(venue, clientOrderId));
    tracker.rememberEncoding(clientOrderId, encoded);
    const order = await this.byClientId(encoded, unified);
    if (order.id) {
      tracker.track(order.id, clientOrderId);
    }
    return order;
  }

  /**
   * The venue's record by its client id: its look-up by client id, and where
   * that finds open orders only (`OPEN_ONLY_BY_CLIENT_ID`), on a miss the
   * order history filtered by the client id. UnknownOrderError when neither
   * has it.
   */
  private async byClientId(encoded: string, unified: string): Promise<Order> {
    const { venue, exchange } = this.deps;
    try {
      return await this.call(() => exchange.fetchOrder('', unified, { clientOrderId: encoded }));
    } catch (error) {
      if (!OPEN_ONLY_BY_CLIENT_ID.has(venue) || !isClientIdMiss(error)) {
        throw error;
      }
    }
    const history = await this.history(encoded, unified);
    // The history documents no consistency bound: the stream may know the order first.
    const found =
      history.find((order) => order.clientOrderId === encoded) ??
      ORDER_FATES.latestByClientId(venue, encoded);
    if (!found) {
      throw new UnknownOrderError(venue, `no order with client order id ${encoded}`);
    }
    return found;
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return venueCall(this.deps.venue, work);
  }
}

/**
 * The venue has no open order by that client id: an UnknownOrderError, or
 * Paradex's CLIENT_ORDER_ID_NOT_FOUND (which ccxt 4.5.84 raises as a bare
 * InvalidOrder, so it arrives as a refusal carrying the venue's code).
 */
/**
 * The venue has no open order by that id: Paradex's ORDER_ID_NOT_FOUND (a
 * closed order, by its documents), whatever error ccxt raised it as.
 */
const isOrderIdMiss = (error: unknown): boolean =>
  error instanceof UnknownOrderError ||
  (error instanceof VenueError && error.detail.includes('ORDER_ID_NOT_FOUND'));

const isClientIdMiss = (error: unknown): boolean =>
  error instanceof UnknownOrderError ||
  (error instanceof VenueError && error.detail.includes('CLIENT_ORDER_ID_NOT_FOUND'));
