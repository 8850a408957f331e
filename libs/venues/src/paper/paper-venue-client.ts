import { OrderRejectedError, VenueNetworkError } from '../errors';
import type { VenueBalance, VenueFundingPayment, VenuePosition } from '../model/account';
import type { VenueMarket } from '../model/market';
import type {
  CancelResult,
  CancelTarget,
  OrderAck,
  OrderType,
  PlaceOrderRequest,
  ReplaceRequest,
  ReplaceResult,
  VenueFill,
  VenueOrder,
} from '../model/orders';
import type {
  CumulativeBudget,
  Unsubscribe,
  VenueClient,
  VenueEventMap,
  VenueEventType,
} from '../venue-client';
import { VenueEvents } from '../venue-events';
import { PaperHttp } from './paper-http';
import type { PaperVenueClientOptions } from './paper-options';
import {
  EXPIRY_SETTLE_MARGIN_MS,
  PaperOrderEntry,
  wireCancel,
  wirePlacement,
  wireReplace,
  wireTarget,
} from './paper-order-entry';
import { PaperStream } from './paper-stream';
import type {
  WireBalance,
  WireError,
  WireFill,
  WireFundingPayment,
  WireMarket,
  WireOrder,
  WirePlaceResult,
  WirePosition,
  WireReplaceResult,
} from './protocol';
import {
  toVenueBalance,
  toVenueFill,
  toVenueFunding,
  toVenueMarket,
  toVenueOrder,
  toVenuePosition,
} from './wire-mapping';

export { EXPIRY_SETTLE_MARGIN_MS } from './paper-order-entry';

export type { PaperVenueClientOptions } from './paper-options';

/**
 * VenueClient for a paper venue served by apps/venue-sim: one signed
 * WebSocket for books, own orders and fills, and order entry (place, cancel,
 * replace) while it is up; signed HTTP for queries, and for orders while the
 * socket is down. The socket reconnects by itself and signals `reconnected`
 * so fills missed in between are recovered with `fillsSince`.
 */
export class PaperVenueClient implements VenueClient {
  readonly venue: string;
  /** The paper venue amends in one request (`replace`), as Hyperliquid and Lighter do. */
  readonly replaceRequestCost = 1;
  readonly sendsFollowUpRequests = false;
  readonly unpaidFillReads = false;
  readonly orderRequestLifetimeMs: number;
  /** The paper protocol has no dead-man switch: its orders expire with their requests. */
  readonly deadManSwitch = null;
  private readonly requestTimeoutMs: number;
  private readonly http: PaperHttp;
  private readonly events: VenueEvents;
  private readonly stream: PaperStream;
  private readonly entry: PaperOrderEntry;
  private readonly bySymbol = new Map<string, VenueMarket>();
  private connecting?: Promise<void>;
  private readsReady?: Promise<void>;

  constructor(private readonly options: PaperVenueClientOptions) {
    this.venue = options.venue;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5_000;
    // Maker requests live requestTimeoutMs on the venue; hedges (lifetimeMs) less.
    this.orderRequestLifetimeMs = this.requestTimeoutMs + EXPIRY_SETTLE_MARGIN_MS;
    this.http = new PaperHttp({
      venue: options.venue,
      baseUrl: options.baseUrl,
      credentials: options.credentials,
      requestTimeoutMs: this.requestTimeoutMs,
    });
    this.events = new VenueEvents((error, type) =>
      options.logger?.error(
        { venue: this.venue, event: type, err: error },
        'venue event listener failed',
      ),
    );
    this.stream = new PaperStream({
      venue: options.venue,
      baseUrl: options.baseUrl,
      credentials: options.credentials,
      bookDepth: options.bookDepth ?? 10,
      reconnect: options.reconnect,
      events: this.events,
      marketOf: (symbol) => this.marketOf(symbol),
      logger: options.logger,
      coalescer: options.coalescer,
    });
    this.entry = new PaperOrderEntry({
      venue: options.venue,
      http: this.http,
      stream: this.stream,
      orderEntry: options.orderEntry,
      requestTimeoutMs: this.requestTimeoutMs,
    });
  }

  /** The paper venues keep no cumulative budget (a per-second limit only). */
  cumulativeBudget(): Promise<CumulativeBudget | null> {
    return Promise.resolve(null);
  }

  /** The paper venue proves no credentials: connecting spends nothing of the account. */
  requestsToConnect(): number {
    return 0;
  }

  connect(): Promise<void> {
    this.connecting ??= this.open().catch((error: unknown) => {
      this.connecting = undefined;
      this.stream.stop();
      throw error;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.connecting = undefined;
    this.readsReady = undefined;
    this.stream.stop();
    this.http.close();
  }

  on<K extends VenueEventType>(type: K, listener: (event: VenueEventMap[K]) => void): Unsubscribe {
    return this.events.on(type, listener);
  }

  async markets(): Promise<VenueMarket[]> {
    const { markets } = await this.http.call<{ markets: WireMarket[] }>('GET', '/markets', {
      signed: false,
    });
    const mapped = markets.map(toVenueMarket);
    for (const market of mapped) {
      this.bySymbol.set(market.entry.symbol, market);
    }
    return mapped;
  }

  async subscribeBook(symbol: string): Promise<void> {
    await this.connect();
    if (!this.bySymbol.has(symbol)) {
      throw new OrderRejectedError(this.venue, 'unknown_market', `unknown market ${symbol}`);
    }
    await this.stream.subscribeBook(symbol, this.options.connectTimeoutMs ?? 10_000);
  }

  async unsubscribeBook(symbol: string): Promise<void> {
    this.stream.unsubscribeBook(symbol);
  }

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.place(request, 'post_only');
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.place(request, 'ioc');
  }

  async cancel(target: CancelTarget): Promise<CancelResult> {
    const params = wireCancel(target, this.expiry());
    const outcome = await this.entry.call(
      { op: 'cancel', params },
      { method: 'DELETE', path: '/orders', options: { query: { ...params } } },
    );
    const body = outcome.body as { order?: WireOrder } & Partial<WireError>;
    if (!outcome.error && body.order) {
      return { outcome: 'canceled', order: this.order$(body.order) };
    }
    if (outcome.status === 409 && body.code === 'order_not_open' && body.order) {
      return { outcome: 'not_open', order: this.order$(body.order) };
    }
    throw outcome.error ?? new VenueNetworkError(this.venue, 'cancel answered without an order');
  }

  async replace(request: ReplaceRequest): Promise<ReplaceResult> {
    const params = wireReplace(request, this.expiry());
    const outcome = await this.entry.call(
      { op: 'replace', params },
      { method: 'POST', path: '/orders/replace', options: { body: params } },
    );
    if (outcome.error) {
      throw outcome.error;
    }
    const body = outcome.body as WireReplaceResult;
    return {
      canceled: { outcome: body.canceled.outcome, order: this.order$(body.canceled.order) },
      ...(body.placed ? { placed: this.ack$(body.placed) } : {}),
      ...(body.place_error ? { placeError: this.http.errorOf(400, body.place_error) } : {}),
    };
  }

  async order(target: CancelTarget): Promise<VenueOrder> {
    const { order } = await this.http.call<{ order: WireOrder }>('GET', '/order', {
      query: { ...wireTarget(target) },
    });
    return this.order$(order);
  }

  async openOrders(symbol?: string): Promise<VenueOrder[]> {
    const { orders } = await this.http.call<{ orders: WireOrder[] }>('GET', '/orders/open', {
      query: symbol ? { symbol } : undefined,
    });
    return orders.map((order) => this.order$(order));
  }

  async fillsSince(timestampMs: number, symbol?: string): Promise<VenueFill[]> {
    const { fills } = await this.http.call<{ fills: WireFill[] }>('GET', '/fills', {
      query: { since: timestampMs },
    });
    return fills
      .filter((fill) => symbol === undefined || fill.symbol === symbol)
      .map((fill) => toVenueFill(this.venue, this.marketOf(fill.symbol), fill));
  }

  async fundingPayments(timestampMs: number): Promise<VenueFundingPayment[]> {
    const { funding } = await this.http.call<{ funding: WireFundingPayment[] }>('GET', '/funding', {
      query: { since: timestampMs },
    });
    return funding.map((payment) =>
      toVenueFunding(this.venue, this.marketOf(payment.symbol), payment),
    );
  }

  async positions(): Promise<VenuePosition[]> {
    const { positions } = await this.http.call<{ positions: WirePosition[] }>('GET', '/positions');
    return positions.map((position) =>
      toVenuePosition(this.venue, this.marketOf(position.symbol), position),
    );
  }

  async balances(): Promise<VenueBalance[]> {
    const { balances } = await this.http.call<{ balances: WireBalance[] }>('GET', '/balances');
    return balances.map(toVenueBalance);
  }

  connectForReads(): Promise<void> {
    this.readsReady ??= this.openForReads().catch((error: unknown) => {
      this.readsReady = undefined;
      throw error;
    });
    return this.readsReady;
  }

  private async open(): Promise<void> {
    await this.connectForReads();
    await this.stream.start(this.options.connectTimeoutMs ?? 10_000);
  }

  /** The account registered (when the client registers it) and the markets loaded. */
  private async openForReads(): Promise<void> {
    if (this.options.selfRegister !== false) {
      const { apiKey, apiSecret, wallet } = this.options.credentials;
      await this.http.call('POST', '/accounts/register', {
        signed: false,
        body: { api_key: apiKey, api_secret: apiSecret, wallet },
      });
    }
    await this.markets();
  }

  private async place(request: PlaceOrderRequest, type: OrderType): Promise<OrderAck> {
    const lifetimeMs = request.lifetimeMs ?? this.requestTimeoutMs;
    const params = wirePlacement(request, type, this.expiry(lifetimeMs));
    const outcome = await this.entry.call(
      { op: 'place', params },
      { method: 'POST', path: '/orders', options: { body: params, timeoutMs: lifetimeMs } },
    );
    if (outcome.error) {
      throw outcome.error;
    }
    return this.ack$(outcome.body as WirePlaceResult);
  }

  /** An order request's expiry on the venue: it is refused if it reaches the engine later. */
  private expiry(lifetimeMs = this.requestTimeoutMs): number {
    return Date.now() + lifetimeMs;
  }

  private ack$(result: WirePlaceResult): OrderAck {
    const market = this.marketOf(result.order.symbol);
    return {
      order: toVenueOrder(this.venue, market, result.order),
      fills: result.fills.map((fill) => toVenueFill(this.venue, market, fill)),
      duplicate: result.duplicate,
    };
  }

  private order$(wire: WireOrder): VenueOrder {
    return toVenueOrder(this.venue, this.marketOf(wire.symbol), wire);
  }

  private marketOf(symbol: string): string {
    return this.bySymbol.get(symbol)?.canonical ?? symbol;
  }
}
