import type { Logger } from '@sts/platform';
import { UnknownOrderError, type VenueError } from '../errors';
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
import { toVenueError } from './ccxt-errors';
import { CcxtMarketCache } from './ccxt-market-cache';
import { CcxtAccountEvents } from './ccxt-account-events';
import { toBalances, toBook, toPosition } from './ccxt-mapping';
import { CcxtStreams } from './ccxt-streams';
import { encodeClientOrderId } from './client-order-ids';
import { OrderTracker } from './order-tracker';

export interface CcxtVenueClientOptions {
  venue: string;
  exchange: CcxtExchangeLike;
  bookDepth?: number;
  logger?: Logger;
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
  private readonly tracker = new OrderTracker();
  private readonly streams: CcxtStreams;
  private readonly account: CcxtAccountEvents;

  constructor(options: CcxtVenueClientOptions) {
    this.venue = options.venue;
    this.exchange = options.exchange;
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
    });
  }

  async connect(): Promise<void> {
    if (!this.markets$.loaded) await this.call(() => this.markets$.load());
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
    if (!this.markets$.loaded) await this.markets();
    await this.streams.watchBook(this.markets$.unified(symbol));
  }

  async unsubscribeBook(symbol: string): Promise<void> {
    this.streams.unwatchBook(this.markets$.unified(symbol));
  }

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.place(request, { postOnly: true, timeInForce: 'PO' });
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.place(request, { timeInForce: 'IOC' });
  }

  async cancel(target: CancelTarget): Promise<CancelResult> {
    const orderId = await this.resolveOrderId(target);
    const unified = target.symbol ? this.markets$.unified(target.symbol) : undefined;
    try {
      await this.exchange.cancelOrder(orderId, unified);
    } catch (error) {
      const mapped = toVenueError(error, this.venue);
      if (mapped.code !== 'unknown_order') throw mapped;
      // "Not found" also means "already done" on most venues: tell the two apart.
      const order = await this.order({ orderId, symbol: target.symbol });
      return { outcome: 'not_open', order };
    }
    const order = await this.order({ orderId, symbol: target.symbol }).catch(() => undefined);
    return { outcome: 'canceled', order };
  }

  replace(request: ReplaceRequest): Promise<ReplaceResult> {
    return replaceInTwoRequests(this, request);
  }

  async order(target: CancelTarget): Promise<VenueOrder> {
    const orderId = await this.resolveOrderId(target);
    const unified = target.symbol ? this.markets$.unified(target.symbol) : undefined;
    return this.account.order(await this.call(() => this.exchange.fetchOrder(orderId, unified)));
  }

  async openOrders(symbol?: string): Promise<VenueOrder[]> {
    const unified = symbol ? this.markets$.unified(symbol) : undefined;
    const orders = await this.call(() => this.exchange.fetchOpenOrders(unified));
    return orders.map((order) => this.account.order(order));
  }

  async fillsSince(timestampMs: number): Promise<VenueFill[]> {
    const trades = await this.call(() => this.exchange.fetchMyTrades(undefined, timestampMs));
    return trades
      .filter((trade) => (trade.timestamp ?? 0) >= timestampMs)
      .sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0))
      .map((trade) => this.account.fill(trade, false));
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
    const encoded = encodeClientOrderId(this.venue, request.clientOrderId);
    this.tracker.rememberEncoding(request.clientOrderId, encoded);
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
      if (order.id) this.tracker.track(order.id, request.clientOrderId, request.size);
      return { order: this.account.order(order), fills: [], duplicate: false };
    } catch (error) {
      const mapped = toVenueError(error, this.venue);
      if (!isDuplicate(mapped)) throw mapped;
      return {
        order: await this.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
        fills: [],
        duplicate: true,
      };
    }
  }

  private async resolveOrderId(target: CancelTarget): Promise<string> {
    if ('orderId' in target) return target.orderId;
    const known = this.tracker.orderIdOf(target.clientOrderId);
    if (known) return known;
    const encoded = String(encodeClientOrderId(this.venue, target.clientOrderId));
    const open = await this.openOrders(target.symbol);
    const found = open.find(
      (order) => order.clientOrderId === target.clientOrderId || order.clientOrderId === encoded,
    );
    if (!found)
      throw new UnknownOrderError(
        this.venue,
        `no order with client order id ${target.clientOrderId}`,
      );
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

const isDuplicate = (error: VenueError): boolean =>
  error.code === 'rejected' &&
  (error as VenueError & { reason?: string }).reason === 'duplicate_client_order_id';
