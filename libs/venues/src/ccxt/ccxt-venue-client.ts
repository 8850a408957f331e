import Big from 'big.js';
import type { Trade } from 'ccxt';
import type { RequestKind } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { VenueBalance, VenueFundingPayment, VenuePosition } from '../model/account';
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
import type {
  CumulativeBudget,
  DeadManSwitch,
  OrderBatch,
  Unsubscribe,
  VenueClient,
  VenueEventMap,
  VenueEventType,
} from '../venue-client';
import { VenueEvents } from '../venue-events';
import { replaceInTwoRequests } from '../common/replace-in-two-requests';
import { unpaid } from '../common/request-meter';
import { CcxtAccountEvents } from './ccxt-account-events';
import { cancelOrder, cancelOrders } from './ccxt-cancel';
import { verifyCredentials } from './ccxt-credentials';
import { beforeRestingOrderOf, ccxtDeadManSwitch } from './ccxt-dead-man';
import { RestingMarkets } from './resting-markets';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { venueCall } from './ccxt-errors';
import { cumulativeBudgetReader } from './cumulative-budget';
import { CcxtMarketCache } from './ccxt-market-cache';
import { toBalances, toBook, toPosition } from './ccxt-mapping';
import { CcxtOrderLookup } from './ccxt-order-lookup';
import { CcxtPlacement } from './ccxt-placement';
import { CcxtStreams } from './ccxt-streams';
import { decodeClientOrderId } from './client-order-ids';
import { fetchFillsSince } from './fills-read';
import { toFundingPayment } from './ccxt-funding';
import { fetchFundingSince } from './funding-read';
import { OrderRequestExpiry } from './order-expiry';
import { OrderTracker } from './order-tracker';

export interface CcxtVenueClientOptions {
  venue: string;
  exchange: CcxtExchangeLike;
  bookDepth?: number;
  logger?: Logger;
  /** False for a market-data client without credentials: nothing verified, no account stream. */
  authenticated?: boolean;
  /** Budget tokens each kind of request costs (the registry's `requestCosts`); absent: 1 each. */
  requestCosts?: Readonly<Record<RequestKind, number>>;
  /** How long a market stays armed after its last order closed (RESTING_MARKET_LINGER_MS). */
  restingMarketLingerMs?: number;
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
  readonly sendsFollowUpRequests = true;
  /** Without a trade stream, an order's growth reads its fills at once, unpaid. */
  readonly unpaidFillReads: boolean;
  /** The expiry this client's order requests carry on the venue (order-expiry.ts). */
  private readonly expiry: OrderRequestExpiry;
  readonly deadManSwitch: DeadManSwitch | null;
  private readonly exchange: CcxtExchangeLike;
  private readonly events: VenueEvents;
  private readonly markets$: CcxtMarketCache;
  private readonly tracker: OrderTracker;
  private readonly streams: CcxtStreams;
  private readonly account: CcxtAccountEvents;
  private readonly lookup: CcxtOrderLookup;
  private readonly placement: CcxtPlacement;
  /** Where an order of this client may rest (a per-market dead-man switch arms these). */
  private readonly resting: RestingMarkets;
  /** Batched order and cancel requests, with their expiry (order-expiry.ts), where sent. */
  readonly batch?: OrderBatch;
  private credentialsVerified = false;
  /** The connect's credential probe, where it read the balances: taken by the first `balances`. */
  private probedBalances: { atMs: number; balances: VenueBalance[] } | undefined;
  private readonly authenticated: boolean;
  private readonly cumulative: (() => Promise<CumulativeBudget | null>) | undefined;

  constructor(options: CcxtVenueClientOptions) {
    this.venue = options.venue;
    this.exchange = options.exchange;
    this.tracker = new OrderTracker((venueId) => decodeClientOrderId(options.venue, venueId));
    this.resting = new RestingMarkets(options.restingMarketLingerMs);
    this.authenticated = options.authenticated ?? true;
    this.cumulative = this.authenticated
      ? cumulativeBudgetReader(options.venue, options.exchange)
      : undefined;
    this.unpaidFillReads = options.exchange.has['watchMyTrades'] !== true;
    this.deadManSwitch = this.authenticated
      ? ccxtDeadManSwitch(options.venue, options.exchange, () => this.resting.markets())
      : null;
    this.events = new VenueEvents((error, type) =>
      options.logger?.error(
        { venue: this.venue, event: type, err: error },
        'venue event listener failed',
      ),
    );
    this.markets$ = new CcxtMarketCache(options.exchange, options.venue);
    this.streams = this.streamsFor(options);
    this.account = new CcxtAccountEvents({
      venue: options.venue,
      markets: this.markets$,
      tracker: this.tracker,
      events: this.events,
      streams: this.streams,
      tradeStream: !this.unpaidFillReads,
      fillReadTokens: options.requestCosts?.fills ?? 1,
      resting: this.resting,
      readFills: (order) =>
        this.call(() =>
          this.exchange.fetchMyTrades(
            order.symbol ?? undefined,
            (order.timestamp ?? Date.now()) - FILL_READ_MARGIN_MS,
          ),
        ),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const orderDeps = {
      venue: options.venue,
      exchange: options.exchange,
      markets: this.markets$,
      tracker: this.tracker,
    };
    this.lookup = new CcxtOrderLookup({
      ...orderDeps,
      account: this.account,
      loadMarkets: () => this.markets(),
    });
    this.expiry = new OrderRequestExpiry(options.venue, options.exchange);
    this.placement = new CcxtPlacement({
      ...orderDeps,
      lookup: this.lookup,
      expiry: this.expiry,
      beforeRestingOrder: beforeRestingOrderOf(this.deadManSwitch),
      resting: this.resting,
    });
    this.batch = this.batchOf(options.venue);
  }

  private batchOf(venue: string): OrderBatch | undefined {
    const batches = this.expiry.batches;
    if (!batches) {
      return undefined;
    }
    const { exchange, lookup, expiry } = this;
    return {
      maxOrders: batches.placements.max,
      minPlacements: batches.minPlacements,
      placePostOnly: (requests) => this.placement.placeBatch(requests, { postOnly: true }),
      cancel: (targets) => cancelOrders({ venue, exchange, lookup, expiry }, targets),
    };
  }

  /**
   * The longest an order request lives on the venue plus the settle margin:
   * null where ccxt sends this venue's orders with no expiry the client can
   * set (read per call: it follows the instance's answer timeout).
   */
  get orderRequestLifetimeMs(): number | null {
    return this.expiry.lifetimeBoundMs;
  }

  /** The credential probe, once per client (market loads are public, not the account's). */
  requestsToConnect(): number {
    return this.authenticated && !this.credentialsVerified ? 1 : 0;
  }

  async connect(): Promise<void> {
    if (!this.markets$.loaded) {
      // The venue's markets, loaded once for every account: no opening trade's spend.
      await this.call(() => unpaid(() => this.markets$.load()));
    }
    if (!this.authenticated) {
      return;
    }
    if (!this.credentialsVerified) {
      const probed = await verifyCredentials(this.venue, this.exchange, () =>
        this.markets$.anyUnified(),
      );
      this.credentialsVerified = true;
      this.probedBalances = probed && { atMs: Date.now(), balances: toBalances(probed) };
    }
    this.streams.startAccount();
  }

  async connectForReads(): Promise<void> {
    if (!this.markets$.loaded) {
      await this.call(() => this.markets$.load());
    }
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

  /**
   * The venue's latest word on the account's cumulative budget
   * (`cumulative-budget.ts`): Hyperliquid's `userRateLimit` read, Lighter's
   * last `sendTx` answer; null where the venue keeps none.
   */
  cumulativeBudget(): Promise<CumulativeBudget | null> {
    return this.call(() => this.cumulative?.() ?? Promise.resolve(null));
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
    return this.placement.place(request, { postOnly: true });
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    // ccxt's unified `reduceOnly` param, which each venue's class maps to its own field.
    return this.placement.place(request, {
      timeInForce: 'IOC',
      ...(request.reduceOnly ? { reduceOnly: true } : {}),
    });
  }

  cancel(target: CancelTarget): Promise<CancelResult> {
    const { venue, exchange, lookup, expiry } = this;
    return cancelOrder({ venue, exchange, lookup, expiry }, target);
  }

  replace(request: ReplaceRequest): Promise<ReplaceResult> {
    return replaceInTwoRequests(this, request);
  }

  order(target: CancelTarget): Promise<VenueOrder> {
    return this.lookup.order(target);
  }

  openOrders(symbol?: string): Promise<VenueOrder[]> {
    return this.lookup.openOrders(symbol);
  }

  async fillsSince(timestampMs: number, symbol?: string): Promise<VenueFill[]> {
    const markets: Array<string | undefined> = symbol
      ? [this.markets$.unified(symbol)]
      : FILLS_PER_MARKET.has(this.venue)
        ? [...this.placement.tradedMarkets]
        : [undefined];
    const trades: Trade[] = [];
    for (const unified of markets) {
      trades.push(
        ...(await this.call(() =>
          fetchFillsSince(this.exchange, this.venue, unified, timestampMs),
        )),
      );
    }
    await this.lookup.learnOrdersOf(trades);
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
   * Funding payments from the venue's own record (funding-read.ts), oldest
   * first. Paradex lists them per market only: the markets read are those
   * the account holds a position in now and those this client traded.
   */
  async fundingPayments(
    timestampMs: number,
    markets: readonly string[] = [],
  ): Promise<VenueFundingPayment[]> {
    if (!this.markets$.loaded) {
      await this.markets();
    }
    const entries = await this.call(() =>
      fetchFundingSince(
        {
          exchange: this.exchange,
          venue: this.venue,
          marketsToRead: () => this.marketsHeldOrTraded(markets),
        },
        timestampMs,
      ),
    );
    return entries
      .filter((entry) => entry.timeMs >= timestampMs)
      .sort((a, b) => a.timeMs - b.timeMs)
      .map((entry) =>
        toFundingPayment(entry, this.venue, this.markets$.fundingNames(entry.unified)),
      );
  }

  async positions(): Promise<VenuePosition[]> {
    const positions = await this.call(() => this.exchange.fetchPositions());
    return positions.flatMap((position) => {
      const { symbol, market } = this.markets$.names(position.symbol);
      const mapped = toPosition(position, this.venue, symbol, market);
      return mapped ? [mapped] : [];
    });
  }

  /**
   * The account's balances. The first ask within a moment of the connect's
   * credential probe, where that probe was a balance read, is answered from
   * it: an opening trade's pre-flight reads the balances the connect has just
   * read, and the venue weighs the read again (Paradex: 3 tokens of a share
   * of 2 a second).
   */
  async balances(): Promise<VenueBalance[]> {
    const probed = this.probedBalances;
    this.probedBalances = undefined;
    if (probed && Date.now() - probed.atMs <= PROBED_BALANCES_FRESH_MS) {
      return probed.balances;
    }
    return toBalances(await this.call(() => this.exchange.fetchBalance()));
  }

  /** Unified symbols of the markets the account holds a position in, and those this client traded. */
  private async marketsHeldOrTraded(markets: readonly string[]): Promise<string[]> {
    const held = (await this.exchange.fetchPositions()).flatMap((position) =>
      position.symbol && Number(position.contracts ?? 0) !== 0 ? [position.symbol] : [],
    );
    const named = markets.flatMap((market) => this.markets$.unifiedOfCanonical(market));
    return [...new Set([...held, ...this.placement.tradedMarkets, ...named])];
  }

  /** The client's streams: own orders and trades to the account's events, books mapped. */
  private streamsFor(options: CcxtVenueClientOptions): CcxtStreams {
    const depth = options.bookDepth ?? 10;
    return new CcxtStreams({
      exchange: options.exchange,
      events: this.events,
      depth,
      onOrders: (orders) => orders.forEach((order) => this.account.onOrderUpdate(order)),
      onTrades: (trades) => trades.forEach((trade) => this.account.onTrade(trade)),
      bookOf: (book, unified, seq) => {
        const { symbol, market } = this.markets$.names(unified);
        return toBook(book, this.venue, symbol, market, depth, seq);
      },
      logger: options.logger,
    });
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return venueCall(this.venue, work);
  }
}

/** An order's fills are read from a little before it was created (the venue's clock). */
const FILL_READ_MARGIN_MS = 5_000;

/** Venues whose ccxt fetchMyTrades needs a market (Aster's userTrades takes one symbol). */
const FILLS_PER_MARKET = new Set(['aster']);

/**
 * How long the connect's balance read stands for the next ask of the
 * balances: an opening trade's pre-flight follows its connect within
 * milliseconds; anything later reads again.
 */
const PROBED_BALANCES_FRESH_MS = 1_000;
