import Big from 'big.js';
import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { SignedRequest } from '../../api/order-entry';
import { ParadexAuth, ParadexError, SYSTEM_CONFIG } from './paradex-auth';
import { PARADEX, ParadexOrders } from './paradex-orders';
import { hourlyFundingRate } from '../../api/wire-numbers';

export { PARADEX } from './paradex-orders';
const BASE = `/dialects/${PARADEX}/v1`;

/** What a private handler gets: the account of the bearer token. */
interface PrivateCall {
  context: RequestContext;
  accountId: string;
}

/**
 * Paradex's REST API (`/v1/...`) over the simulator's engine, as far as it is
 * served today: the system config ccxt derives accounts from, markets and
 * their summaries, order books, onboarding, the StarkNet-signed auth that
 * issues a bearer token, the account's balance and positions, its orders
 * (paradex-orders.ts) and fills. Private requests are admitted like any
 * request of the account (rate limit, latency, freeze, and for orders every
 * order fault).
 */
export class ParadexRest {
  readonly auth = new ParadexAuth();
  readonly orders: ParadexOrders;

  constructor(private readonly deps: DialectDeps) {
    this.orders = new ParadexOrders(deps, this.auth);
  }

  addRoutes(router: Router): void {
    const pub = (path: string, answer: (context: RequestContext) => unknown): void => {
      router.add('GET', `${BASE}/${path}`, (context) =>
        this.answer(() => ({ status: 200, body: answer(context) })),
      );
    };
    pub('system/config', () => SYSTEM_CONFIG);
    pub('system/time', () => ({ server_time: String(Date.now()) }));
    pub('system/state', () => ({ status: 'ok' }));
    pub('markets', (context) => ({
      results: this.marketsOf(context.query.get('market')).map((m) => marketInfo(m)),
    }));
    pub('markets/summary', (context) => ({
      results: this.marketsOf(context.query.get('market')).map((m) => this.summary(m)),
    }));
    pub('orderbook/:market', (context) => orderBook(this.market(context.params['market'] ?? '')));

    router.add('POST', `${BASE}/onboarding`, (context) =>
      this.answer(() => {
        const body = parseBody(context.rawBody);
        this.auth.onboard(lowerHeaders(context), body['public_key']);
        return { status: 200, body: {} };
      }),
    );
    router.add('POST', `${BASE}/auth`, (context) =>
      this.answer(() => ({
        status: 200,
        body: { jwt_token: this.auth.authenticate(lowerHeaders(context), Date.now()) },
      })),
    );

    const priv = (
      path: string,
      answer: (venue: VenueEngine, call: PrivateCall) => unknown,
    ): void => {
      router.add('GET', `${BASE}/${path}`, (context) => this.read(context, answer));
    };
    priv('balance', (venue, call) => ({ results: [balance(venue, call.accountId)] }));
    priv('positions', (venue, call) => ({ results: positions(venue, call.accountId) }));
    priv('orders', (venue, call) => ({
      results: this.orders.open(venue, call.accountId, call.context.query.get('market')),
    }));
    priv('orders/by_client_id/:client_id', (venue, call) =>
      this.orders.lookup(venue, call.accountId, { clientId: call.context.params['client_id'] }),
    );
    priv('orders/:order_id', (venue, call) =>
      this.orders.lookup(venue, call.accountId, { id: call.context.params['order_id'] }),
    );
    priv('fills', (venue, call) => ({
      next: null,
      prev: null,
      results: this.orders.fills(venue, call.accountId, call.context.query),
    }));

    router.add('POST', `${BASE}/orders`, (context) =>
      this.write(context, (request, account) =>
        this.orders.place(request, account, parseBody(context.rawBody)),
      ),
    );
    router.add('DELETE', `${BASE}/orders/by_client_id/:client_id`, (context) =>
      this.write(context, (request) =>
        this.orders.cancel(request, { clientId: context.params['client_id'] }),
      ),
    );
    router.add('DELETE', `${BASE}/orders/:order_id`, (context) =>
      this.write(context, (request) =>
        this.orders.cancel(request, { id: context.params['order_id'] }),
      ),
    );
  }

  /** A private order request of the bearer token's account. */
  private async write(
    context: RequestContext,
    act: (request: SignedRequest, account: string) => Promise<HttpReply>,
  ): Promise<HttpReply> {
    try {
      const account = this.auth.accountOf(context.headers['authorization'], Date.now());
      const accountId = this.deps.funding.account(PARADEX, this.auth.walletOf(account));
      if (!accountId) {
        throw new ParadexError(400, 'NOT_ENOUGH_MARGIN', 'the account holds no collateral');
      }
      const request: SignedRequest = {
        venueId: PARADEX,
        accountId,
        channel: { cut: context.cutConnection, mute: () => undefined },
      };
      return await act(request, account);
    } catch (error) {
      return this.refusal(error);
    }
  }

  /** A private read: the bearer token's account, admitted like any of its requests. */
  private async read(
    context: RequestContext,
    answer: (venue: VenueEngine, call: PrivateCall) => unknown,
  ): Promise<HttpReply> {
    try {
      const account = this.auth.accountOf(context.headers['authorization'], Date.now());
      const wallet = this.auth.walletOf(account);
      const accountId = this.deps.funding.account(PARADEX, wallet) ?? wallet;
      return await this.deps.orders.execute(
        {
          venueId: PARADEX,
          accountId,
          channel: { cut: context.cutConnection, mute: () => undefined },
        },
        undefined,
        (venue) => ({ status: 200, body: answer(venue, { context, accountId }) }),
      );
    } catch (error) {
      return this.refusal(error);
    }
  }

  private summary(market: MarketState) {
    const mark = market.markPrice();
    const basisBps = this.deps.world().prices.basisBps(PARADEX, market.spec.symbol);
    const bid = market.book.bids.best();
    const ask = market.book.asks.best();
    const price = (ticks: number | undefined) =>
      ticks === undefined ? mark.toFixed() : market.price.toBig(ticks).toFixed();
    return {
      symbol: market.spec.symbol,
      mark_price: mark.toFixed(),
      last_traded_price: mark.toFixed(),
      bid: price(bid?.priceTicks),
      ask: price(ask?.priceTicks),
      volume_24h: String(market.spec.volume24hUsd),
      total_volume: String(market.spec.volume24hUsd),
      created_at: Date.now(),
      underlying_price: mark
        .div(1 + basisBps / 10_000)
        .round(8)
        .toFixed(),
      open_interest: new Big(market.spec.openInterestUsd).div(mark).round(4).toFixed(),
      funding_rate: hourlyFundingRate(basisBps)
        .times(market.spec.fundingIntervalHours)
        .round(8)
        .toFixed(),
      price_change_rate_24h: '0',
    };
  }

  private marketsOf(symbol: string | null): MarketState[] {
    return symbol ? [this.market(symbol)] : [...this.venue().markets.values()];
  }

  private market(symbol: string): MarketState {
    const market = this.venue().markets.get(symbol);
    if (!market) {
      throw new ParadexError(400, 'MARKET_NOT_FOUND', `market ${symbol} not found`);
    }
    return market;
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(PARADEX);
  }

  private answer(reply: () => HttpReply): HttpReply {
    try {
      return reply();
    } catch (error) {
      return this.refusal(error);
    }
  }

  private refusal(error: unknown): HttpReply {
    if (error instanceof AnswerLost) {
      throw error;
    }
    if (error instanceof ParadexError) {
      return error.reply();
    }
    if (error instanceof Error && (error as { code?: unknown }).code === 'rate_limited')
    // The gateway's 429 carries no Paradex error code (ccxt then maps the status).
    {
      return { status: 429, body: { message: 'rate limit exceeded' } };
    }
    throw error;
  }
}

/** One market as `GET /v1/markets` lists it (a perpetual, settled in USDC). */
function marketInfo(market: MarketState) {
  const { spec } = market;
  return {
    symbol: spec.symbol,
    base_currency: spec.baseAsset,
    quote_currency: spec.quote,
    settlement_currency: 'USDC',
    order_size_increment: spec.lotSize,
    price_tick_size: spec.tickSize,
    min_notional: spec.minNotional ?? '0',
    open_at: 0,
    expiry_at: 0,
    asset_kind: 'PERP',
    market_kind: 'cross',
    position_limit: '1000000000',
    price_bands_width: '0.05',
    max_open_orders: 100,
    max_funding_rate: '0.05',
    delta1_cross_margin_params: {
      imf_base: new Big(1).div(spec.maxLeverage).round(6).toFixed(),
      imf_shift: '0',
      imf_factor: '0',
      mmf_factor: '0.5',
    },
    price_feed_id: spec.asset,
    oracle_ewma_factor: '0.2',
    max_order_size: '1000000000',
    max_funding_rate_change: '0.0005',
    max_tob_spread: '0.2',
    interest_rate: '0',
    clamp_rate: '0.05',
    funding_period_hours: spec.fundingIntervalHours,
    tags: [],
  };
}

/** `GET /v1/orderbook/{market}`: the top levels of each side. */
function orderBook(market: MarketState) {
  const side = (book: typeof market.book.bids) =>
    book
      .top(20)
      .map((level) => [market.price.format(level.priceTicks), market.lot.format(level.totalLots)]);
  return {
    market: market.spec.symbol,
    seq_no: market.book.seq,
    last_updated_at: Date.now(),
    bids: side(market.book.bids),
    asks: side(market.book.asks),
  };
}

/** `GET /v1/balance`: the account's USDC, which margins every market. */
function balance(venue: VenueEngine, accountId: string) {
  const account = venue.accounts.get(accountId);
  const size = account
    ? account.collateral.plus(account.realizedPnl).minus(account.feesPaid)
    : new Big(0);
  return { token: 'USDC', size: size.round(8).toFixed(), last_updated_at: Date.now() };
}

/** `GET /v1/positions`: every open position (cross margin). */
function positions(venue: VenueEngine, accountId: string) {
  const account = venue.accounts.get(accountId);
  if (!account) {
    return [];
  }
  const marks = venue.marks();
  return [...account.positions].map(([symbol, position]) => {
    const mark = marks.get(symbol) ?? venue.market(symbol).markPrice();
    const size = position.size.abs();
    return {
      id: `${accountId}-${symbol}`,
      account: accountId,
      market: symbol,
      status: 'OPEN',
      side: position.size.gt(0) ? 'LONG' : 'SHORT',
      size: size.toFixed(),
      average_entry_price: position.entryPrice.round(8).toFixed(),
      average_entry_price_usd: position.entryPrice.round(8).toFixed(),
      cost: size.times(position.entryPrice).round(8).toFixed(),
      cost_usd: size.times(position.entryPrice).round(8).toFixed(),
      unrealized_pnl: account.unrealizedPnl(symbol, mark).round(8).toFixed(),
      unrealized_funding_pnl: '0',
      realized_positional_pnl: '0',
      liquidation_price: '',
      leverage: '',
      last_updated_at: Date.now(),
      created_at: Date.now(),
    };
  });
}

function parseBody(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw === '' ? '{}' : raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // refused below
  }
  throw new ParadexError(400, 'BINDING_ERROR', 'invalid request body');
}

function lowerHeaders(context: RequestContext): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(context.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
  }
  return headers;
}
