import Big from 'big.js';
import type { Order, Trade } from 'ccxt';
import { UNBOUNDED_REQUEST_SETTLE_MS } from '@sts/domain';
import { type Logger, sleep } from '@sts/platform';
import {
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
  type VenueError,
} from '../errors';
import type { VenueBalance, VenuePosition } from '../model/account';
import type { VenueMarket } from '../model/market';
import type {
  CancelResult,
  CancelTarget,
  OrderAck,
  PlaceOrderRequest,
  ReplaceRequest,
  ReplaceResult,
  VenueFill,
  VenueOrder,
} from '../model/orders';
import type { Unsubscribe, VenueClient, VenueEventMap, VenueEventType } from '../venue-client';
import { VenueEvents } from '../venue-events';
import { replaceInTwoRequests } from '../common/replace-in-two-requests';
import type { CcxtExchangeLike } from './ccxt-exchange';
import { toVenueError, venueAnswer } from './ccxt-errors';
import { CcxtMarketCache } from './ccxt-market-cache';
import { CcxtAccountEvents } from './ccxt-account-events';
import { toBalances, toBook, toPosition, venueClientOrderIdOf } from './ccxt-mapping';
import { CcxtStreams } from './ccxt-streams';
import { decodeClientOrderId, encodeClientOrderId } from './client-order-ids';
import { OrderTracker } from './order-tracker';
import { QUEUED_ACK, QUEUE_SETTLE_MS, awaitQueued, isQueued, queuedRefusal } from './queued-orders';

export interface CcxtVenueClientOptions {
  venue: string;
  exchange: CcxtExchangeLike;
  bookDepth?: number;
  logger?: Logger;
  /**
   * False for a market-data client without credentials (public books and
   * markets only): nothing is verified and no account stream is watched.
   */
  authenticated?: boolean;
}

/**
 * VenueClient for a live venue through ccxt: REST calls for orders and
 * queries, ccxt pro watch loops for books, own orders and fills. Decimal
 * strings become numbers only at ccxt's call boundary (ccxt's API takes
 * numbers and formats them to the market's precision itself).
 */
export class CcxtVenueClient implements VenueClient {
  readonly venue: string;
  /** ccxt has no portable amend: a replace is a cancel and a placement. */
  readonly replaceRequestCost = 2;
  /** ccxt sends no expiry with an order: this client knows no bound. */
  readonly orderRequestLifetimeMs = null;
  private readonly exchange: CcxtExchangeLike;
  private readonly events: VenueEvents;
  private readonly markets$: CcxtMarketCache;
  private readonly tracker: OrderTracker;
  private readonly streams: CcxtStreams;
  private readonly account: CcxtAccountEvents;
  private credentialsVerified = false;
  private readonly authenticated: boolean;
  /** ccxt symbols this client placed orders on (fills are read per market where the venue needs it). */
  private readonly tradedMarkets = new Set<string>();
  /** ccxt symbol of each order seen, for calls by order id alone (Aster's need a symbol). */
  private readonly marketOfOrder = new Map<string, string>();

  constructor(options: CcxtVenueClientOptions) {
    this.venue = options.venue;
    this.exchange = options.exchange;
    this.tracker = new OrderTracker((venueId) => decodeClientOrderId(options.venue, venueId));
    this.authenticated = options.authenticated ?? true;
    this.events = new VenueEvents((error, type) =>
      options.logger?.error(
        { venue: this.venue, event: type, err: error },
        'venue event listener failed',
      ),
    );
    this.markets$ = new CcxtMarketCache(options.exchange, options.venue);
    this.streams = new CcxtStreams({
      exchange: options.exchange,
      events: this.events,
      depth: options.bookDepth ?? 10,
      onOrders: (orders) => orders.forEach((order) => this.account.onOrderUpdate(order)),
      onTrades: (trades) => trades.forEach((trade) => this.account.onTrade(trade)),
      bookOf: (book, unified, seq) => {
        const { symbol, market } = this.markets$.names(unified);
        return toBook(book, this.venue, symbol, market, options.bookDepth ?? 10, seq);
      },
      logger: options.logger,
    });
    this.account = new CcxtAccountEvents({
      venue: options.venue,
      markets: this.markets$,
      tracker: this.tracker,
      events: this.events,
      streams: this.streams,
      tradeStream: options.exchange.has['watchMyTrades'] === true,
      readFills: (order) =>
        this.call(() =>
          this.exchange.fetchMyTrades(
            order.symbol ?? undefined,
            (order.timestamp ?? Date.now()) - FILL_READ_MARGIN_MS,
          ),
        ),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }

  async connect(): Promise<void> {
    if (!this.markets$.loaded) {
      await this.call(() => this.markets$.load());
    }
    if (!this.authenticated) {
      return;
    }
    if (!this.credentialsVerified) {
      await this.verifyCredentials();
      this.credentialsVerified = true;
    }
    this.streams.startAccount();
  }

  async close(): Promise<void> {
    this.streams.stop();
    await this.exchange.close();
  }

  on<K extends VenueEventType>(type: K, listener: (event: VenueEventMap[K]) => void): Unsubscribe {
    return this.events.on(type, listener);
  }

  markets(): Promise<VenueMarket[]> {
    return this.call(() => this.markets$.load());
  }

  async subscribeBook(symbol: string): Promise<void> {
    if (!this.markets$.loaded) {
      await this.markets();
    }
    await this.streams.watchBook(this.markets$.unified(symbol));
  }

  async unsubscribeBook(symbol: string): Promise<void> {
    this.streams.unwatchBook(this.markets$.unified(symbol));
  }

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    // ccxt's unified flag: Hyperliquid's Alo, Aster's GTX (a 'PO' time in force is sent as is and refused).
    return this.place(request, { postOnly: true });
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.place(request, { timeInForce: 'IOC' });
  }

  async cancel(target: CancelTarget): Promise<CancelResult> {
    const orderId = await this.resolveOrderId(target);
    const unified = this.unifiedOf(target, orderId);
    try {
      await this.exchange.cancelOrder(orderId, unified);
    } catch (error) {
      const mapped = toVenueError(error, this.venue);
      if (mapped instanceof VenueNetworkError) {
        throw this.unsettled(mapped);
      }
      if (mapped.code !== 'unknown_order') {
        throw mapped;
      }
      // "Not found" also means "already done" on most venues: tell the two apart.
      const order = await this.order({ orderId, symbol: target.symbol });
      return { outcome: 'not_open', order };
    }
    let order = await this.order({ orderId, symbol: target.symbol }).catch(() => undefined);
    if (order && QUEUED_ACK.has(this.venue) && isOpen(order)) {
      // The cancel was queued: its effect is the order closing.
      const market = unified ?? this.marketOfOrder.get(orderId);
      const settled = await awaitQueued(
        await this.call(() => this.exchange.fetchOrder(orderId, market)),
        () => this.call(() => this.exchange.fetchOrder(orderId, market)),
        (current) => current.status !== 'open',
      );
      order = this.seen(settled);
    }
    return { outcome: 'canceled', order };
  }

  replace(request: ReplaceRequest): Promise<ReplaceResult> {
    return replaceInTwoRequests(this, request);
  }

  async order(target: CancelTarget): Promise<VenueOrder> {
    const unified = target.symbol ? this.markets$.unified(target.symbol) : undefined;
    if ('clientOrderId' in target && !this.tracker.orderIdOf(target.clientOrderId)) {
      const found = await this.orderByClientId(target.clientOrderId, unified);
      if (found) {
        return this.seen(found);
      }
    }
    const orderId = await this.resolveOrderId(target);
    const market = unified ?? this.marketOfOrder.get(orderId);
    return this.seen(await this.call(() => this.exchange.fetchOrder(orderId, market)));
  }

  async openOrders(symbol?: string): Promise<VenueOrder[]> {
    if (!symbol && OPEN_ORDERS_PER_MARKET.has(this.venue)) {
      if (!this.markets$.loaded) {
        await this.markets();
      }
      const orders: VenueOrder[] = [];
      for (const unified of this.markets$.allUnified()) {
        const open = await this.call(() => this.exchange.fetchOpenOrders(unified));
        orders.push(...open.map((order) => this.seen(order)));
      }
      return orders;
    }
    const unified = symbol ? this.markets$.unified(symbol) : undefined;
    const orders = await this.call(() => this.exchange.fetchOpenOrders(unified));
    return orders.map((order) => this.seen(order));
  }

  async fillsSince(timestampMs: number, symbol?: string): Promise<VenueFill[]> {
    const markets: Array<string | undefined> = symbol
      ? [this.markets$.unified(symbol)]
      : FILLS_PER_MARKET.has(this.venue)
        ? [...this.tradedMarkets]
        : [undefined];
    const trades: Trade[] = [];
    for (const unified of markets) {
      trades.push(...(await this.call(() => this.exchange.fetchMyTrades(unified, timestampMs))));
    }
    await this.learnOrdersOf(trades);
    // ccxt trades do not say whether they completed their order: a fill does
    // when the order's fills read here reach its size as placed (when known).
    const filled = new Map<string, Big>();
    return trades
      .filter((trade) => (trade.timestamp ?? 0) >= timestampMs)
      .sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0))
      .map((trade) => {
        const fill = this.account.fill(trade, false);
        const total = (filled.get(fill.orderId) ?? new Big(0)).plus(fill.size);
        filled.set(fill.orderId, total);
        const amount = this.tracker.amountOf(fill.orderId);
        return { ...fill, fullyFilled: amount !== undefined && total.gte(amount) };
      });
  }

  /**
   * Our client order id for every order of these fills, also for orders this
   * client never placed (a worker that took over a dead one's trades): from
   * the venue's own client id on the fill where it carries one (Hyperliquid's
   * `cloid`), else by looking the order up (one request per order, then
   * remembered). A fill without our id would not be counted as its trade's:
   * a hedge filled before a crash would be sent again.
   */
  private async learnOrdersOf(trades: readonly Trade[]): Promise<void> {
    const unknown = new Map<string, string | undefined>();
    for (const trade of trades) {
      const orderId = trade.order;
      if (!orderId || this.tracker.clientOrderIdOf(orderId) || unknown.has(orderId)) {
        continue;
      }
      const carried = venueClientOrderIdOf(trade);
      if (carried) {
        this.tracker.track(orderId, this.tracker.decode(carried));
      } else {
        unknown.set(orderId, trade.symbol ?? undefined);
      }
    }
    for (const [orderId, unified] of unknown) {
      const order = await this.call(() => this.exchange.fetchOrder(orderId, unified));
      this.seen(order);
    }
  }

  async positions(): Promise<VenuePosition[]> {
    const positions = await this.call(() => this.exchange.fetchPositions());
    return positions.flatMap((position) => {
      const { symbol, market } = this.markets$.names(position.symbol);
      const mapped = toPosition(position, this.venue, symbol, market);
      return mapped ? [mapped] : [];
    });
  }

  async balances(): Promise<VenueBalance[]> {
    return toBalances(await this.call(() => this.exchange.fetchBalance()));
  }

  private async place(
    request: PlaceOrderRequest,
    params: Record<string, unknown>,
  ): Promise<OrderAck> {
    const unified = this.markets$.unified(request.symbol);
    this.tradedMarkets.add(unified);
    const encoded = encodeClientOrderId(this.venue, request.clientOrderId);
    this.tracker.rememberEncoding(request.clientOrderId, encoded);
    const ioc = params['timeInForce'] === 'IOC';
    try {
      const order = await this.exchange.createOrder(
        unified,
        'limit',
        request.side,
        Number(request.size),
        Number(request.price),
        {
          ...params,
          clientOrderId: encoded,
        },
      );
      const placed = { unified, request, encoded: String(encoded), ioc };
      const settled = QUEUED_ACK.get(this.venue);
      if (settled && !order.id) {
        // Lighter answers a transaction hash only: what the order did is read
        // from the venue's record of it, found by our client order id.
        const found = await this.placedOrder(request.clientOrderId, unified);
        const id = found.id;
        this.tracker.track(id, request.clientOrderId, request.size);
        const done = await awaitQueued(
          found,
          () => this.call(() => this.exchange.fetchOrder(id, unified)),
          settled,
        );
        const refusal = queuedRefusal(done, this.venue);
        if (refusal) {
          throw refusal;
        }
        return { order: this.seen(completePlacement(done, placed)), fills: [], duplicate: false };
      }
      let answered = completePlacement(order, placed);
      if (answered.id) {
        this.tracker.track(answered.id, request.clientOrderId, request.size);
      }
      if (settled && answered.id && isQueued(answered)) {
        const id = answered.id;
        answered = await awaitQueued(
          answered,
          () => this.call(() => this.exchange.fetchOrder(id, unified)),
          settled,
        );
        const refusal = queuedRefusal(answered, this.venue);
        if (refusal) {
          throw refusal;
        }
      }
      return { order: this.seen(answered), fills: [], duplicate: false };
    } catch (error) {
      const mapped = toVenueError(error, this.venue);
      if (mapped instanceof VenueNetworkError) {
        throw this.unsettled(mapped);
      }
      if (ioc && IOC_FOUND_NOTHING.test(mapped.detail)) {
        // Hyperliquid refuses an IOC that found nothing to take, and gives it
        // no order id: it is an IOC that closed unfilled, known by its cloid.
        const unfilled = completePlacement(
          { id: String(encoded), status: 'canceled', filled: 0 } as Order,
          { unified, request, encoded: String(encoded), ioc },
        );
        return { order: this.seen(unfilled), fills: [], duplicate: false };
      }
      if (!isDuplicate(mapped)) {
        throw mapped;
      }
      return {
        order: await this.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
        fills: [],
        duplicate: true,
      };
    }
  }

  /** Maps a ccxt order, remembering its market for later calls by order id. */
  private seen(order: Order): VenueOrder {
    if (order.id && order.symbol && !this.marketOfOrder.has(order.id)) {
      this.marketOfOrder.set(order.id, order.symbol);
      // The oldest go first: a long-running account places orders without end.
      if (this.marketOfOrder.size > REMEMBERED_ORDERS) {
        this.marketOfOrder.delete(this.marketOfOrder.keys().next().value as string);
      }
    }
    return this.account.order(order);
  }

  private unifiedOf(target: CancelTarget, orderId: string): string | undefined {
    return target.symbol ? this.markets$.unified(target.symbol) : this.marketOfOrder.get(orderId);
  }

  /**
   * An order request whose answer was lost: ccxt sends these venues' orders
   * with no expiry, so nothing bounds when it may still take effect but the
   * fallback (`UNBOUNDED_REQUEST_SETTLE_MS`); until then a look-up that finds
   * nothing proves nothing.
   */
  private unsettled(error: VenueNetworkError): VenueNetworkError {
    if (error.settlesByMs !== undefined) {
      return error;
    }
    return new VenueNetworkError(
      this.venue,
      error.detail,
      error.cause,
      Date.now() + UNBOUNDED_REQUEST_SETTLE_MS,
    );
  }

  /**
   * A placement the venue took without naming the order (Lighter's
   * transaction hash): the venue's record of it, looked up by our client
   * order id until it shows. Not shown within the settle window, the
   * placement's outcome is unknown, like a lost answer: the caller settles
   * it later by looking again.
   */
  private async placedOrder(
    clientOrderId: string,
    unified: string,
  ): Promise<Order & { id: string }> {
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
        throw this.unsettled(
          new VenueNetworkError(
            this.venue,
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
    if (!LOOKUP_BY_CLIENT_ID.has(this.venue) || unified === undefined) {
      return undefined;
    }
    const encoded = String(encodeClientOrderId(this.venue, clientOrderId));
    this.tracker.rememberEncoding(clientOrderId, encoded);
    const order = await this.call(() =>
      this.exchange.fetchOrder('', unified, { clientOrderId: encoded }),
    );
    if (order.id) {
      this.tracker.track(order.id, clientOrderId);
    }
    return order;
  }

  /**
   * Proves the credentials before the first order, with one signed request
   * that changes nothing (`CREDENTIAL_PROBES`): a key the venue does not know,
   * or one the wallet never approved, fails here with the venue's own answer
   * (VenueAuthError), not on the first maker order. A network failure or a
   * 429 proves nothing and is thrown as it is.
   */
  private async verifyCredentials(): Promise<void> {
    const probe = CREDENTIAL_PROBES[this.venue] ?? readBalances;
    try {
      await probe(this.exchange, this.markets$.anyUnified());
    } catch (error) {
      const mapped = toVenueError(error, this.venue);
      // The venue checked the signature, then looked for the order: the key is good.
      if (mapped instanceof UnknownOrderError) {
        return;
      }
      if (mapped instanceof VenueNetworkError || mapped instanceof RateLimitedError) {
        throw mapped;
      }
      const cause = error instanceof Error ? error.message : String(error);
      throw new VenueAuthError(this.venue, venueAnswer(cause, this.venue), error);
    }
  }

  private async resolveOrderId(target: CancelTarget): Promise<string> {
    if ('orderId' in target) {
      return target.orderId;
    }
    const known = this.tracker.orderIdOf(target.clientOrderId);
    if (known) {
      return known;
    }
    const unified = target.symbol ? this.markets$.unified(target.symbol) : undefined;
    const looked = await this.orderByClientId(target.clientOrderId, unified);
    if (looked?.id) {
      return looked.id;
    }
    const encoded = String(encodeClientOrderId(this.venue, target.clientOrderId));
    const open = await this.openOrders(target.symbol);
    const found = open.find(
      (order) => order.clientOrderId === target.clientOrderId || order.clientOrderId === encoded,
    );
    if (!found) {
      throw new UnknownOrderError(
        this.venue,
        `no order with client order id ${target.clientOrderId}`,
      );
    }
    return found.orderId;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toVenueError(error, this.venue);
    }
  }
}

/**
 * Venues whose ccxt fetchOrder finds an order, open or closed, by the client
 * order id we gave it (Hyperliquid's orderStatus by cloid, Aster's
 * origClientOrderId, Paradex's orders/by_client_id, Extended's orders/external,
 * Lighter's active and inactive orders by client order index);
 * proven against their dialects.
 */
const LOOKUP_BY_CLIENT_ID = new Set(['hyperliquid', 'aster', 'paradex', 'extended', 'lighter']);

/** How often a placement not yet shown by the venue is looked for. */
const PLACED_POLL_MS = 20;

/** An order's fills are read from a little before it was created (the venue's clock). */
const FILL_READ_MARGIN_MS = 5_000;

/** Orders whose market the client remembers for calls by order id alone. */
const REMEMBERED_ORDERS = 10_000;

/** Venues whose ccxt fetchMyTrades needs a market (Aster's userTrades takes one symbol). */
const FILLS_PER_MARKET = new Set(['aster']);

/** Venues whose ccxt fetchOpenOrders needs a market (Lighter's accountActiveOrders): all are read one by one. */
const OPEN_ORDERS_PER_MARKET = new Set(['lighter']);

type CredentialProbe = (exchange: CcxtExchangeLike, unified: string) => Promise<unknown>;

const readBalances: CredentialProbe = (exchange) => exchange.fetchBalance();

/**
 * One signed request per venue that proves a key and changes nothing. Where
 * reads are signed (aster and most venues) a balance read does; Hyperliquid's
 * reads are public (by address), so a signed cancel of an order id that
 * cannot exist is sent: "never placed" proves the signer acts for the wallet.
 * Lighter's balance read is public too; its open orders are read with a token.
 */
const CREDENTIAL_PROBES: Partial<Record<string, CredentialProbe>> = {
  hyperliquid: (exchange, unified) => exchange.cancelOrder('1', unified),
  // Lighter's account reads are public: its open orders need the auth token the key signs.
  lighter: (exchange, unified) => exchange.fetchOpenOrders(unified),
};

const isDuplicate = (error: VenueError): boolean =>
  error.code === 'rejected' &&
  (error as VenueError & { reason?: string }).reason === 'duplicate_client_order_id';

/** Hyperliquid's answer to an IOC that found nothing to take within its limit. */
const IOC_FOUND_NOTHING = /could not immediately match/i;

/**
 * A placement's answer with what the request said where the venue's answer
 * leaves it out: Hyperliquid answers `{resting: {oid}}` or `{filled:
 * {totalSz, avgPx, oid}}`, with no market, side, price or status, and
 * ccxt reads `totalSz` (what filled) as the order's amount: the amount is
 * the size requested. An IOC answered is done: what it did not fill expired.
 */
function completePlacement(
  order: Order,
  placed: { unified: string; request: PlaceOrderRequest; encoded: string; ioc: boolean },
): Order {
  const { unified, request, encoded, ioc } = placed;
  const amount = Number(request.size);
  const filled = order.filled ?? 0;
  const done = new Big(String(filled)).gte(String(amount));
  return {
    ...order,
    symbol: order.symbol ?? unified,
    side: order.side ?? request.side,
    price: order.price ?? Number(request.price),
    amount,
    filled,
    clientOrderId: order.clientOrderId ?? encoded,
    timeInForce: order.timeInForce ?? (ioc ? 'IOC' : 'PO'),
    postOnly: order.postOnly ?? !ioc,
    status: order.status ?? (done ? 'closed' : ioc ? 'canceled' : 'open'),
    timestamp: order.timestamp ?? Date.now(),
  };
}

const isOpen = (order: VenueOrder): boolean =>
  order.status === 'open' || order.status === 'partially_filled';
