import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { heldAssetPrice } from '../held-assets';
import type { SignedRequest } from '../../api/order-entry';
import { limitedRoutes, type RouteTable } from '../limited-routes';
import { OverPublishedLimit, type PublishedLimits } from '../published-limits';
import { ParadexAuth, ParadexError, SYSTEM_CONFIG } from './paradex-auth';
import { PARADEX, ParadexOrders } from './paradex-orders';
import { balances, marketInfo, marketSummary, orderBook, positions } from './paradex-views';
import { paradexDoorRequest, paradexOverLimit, type ParadexKind } from './paradex-rate-limits';
import { fundingPayments } from './paradex-funding';
import { ParadexBatchOrders } from './paradex-batch-orders';
import { PARADEX_READINGS } from './paradex-readings';

export { PARADEX } from './paradex-orders';
const BASE = `/dialects/${PARADEX}/v1`;

/** What a private handler gets: the account of the bearer token. */
interface PrivateCall {
  context: RequestContext;
  /** The engine account (the wallet that onboarded). */
  accountId: string;
  /** The StarkNet account address the token names. */
  address: string;
}

/**
 * Paradex's REST API (`/v1/...`) over the simulator's engine, as far as it is
 * served today: the system config ccxt derives accounts from, markets and
 * their summaries, order books, onboarding, the StarkNet-signed auth that
 * issues a bearer token, the account's balance and positions, its orders
 * (paradex-orders.ts), fills and funding payments (paradex-funding.ts).
 * Every request is admitted by the venue's per-IP pools at the door, a
 * private one then by its account's pools (paradex-rate-limits.ts), and goes
 * the way of the account's requests (latency, freeze, and for orders every
 * order fault).
 */
export class ParadexRest {
  readonly auth = new ParadexAuth();
  readonly orders: ParadexOrders;
  private readonly batches: ParadexBatchOrders;
  private readonly limits: PublishedLimits;

  constructor(private readonly deps: DialectDeps) {
    this.orders = new ParadexOrders(deps, this.auth);
    this.limits = deps.limits.of(PARADEX);
    this.batches = new ParadexBatchOrders(
      this.orders,
      deps.orders,
      this.auth,
      deps.profiles.of(PARADEX, PARADEX_READINGS),
    );
  }

  addRoutes(router: Router): void {
    const api = limitedRoutes(router, {
      limits: this.limits,
      requestOf: (context) =>
        paradexDoorRequest(context.method, context.pathWithQuery.split('?')[0]),
      overLimit: (refusal) => paradexOverLimit(refusal),
    });
    this.addPublicRoutes(api);
    this.addAccountReads(api);
    this.addOrderRoutes(api);
    this.addSimRoutes(router);
  }

  /** The simulator's own control: the life of the JWTs issued from now on (`{lifetime_s}`). */
  private addSimRoutes(router: Router): void {
    const setting = (): HttpReply => ({
      status: 200,
      body: { lifetime_s: this.auth.tokenLifetimeS, issued: this.auth.issued },
    });
    router.add('GET', `/dialects/${PARADEX}/_sim/jwt`, setting);
    router.add('PUT', `/dialects/${PARADEX}/_sim/jwt`, (context) => {
      const lifetime = (parseBody(context.rawBody) as { lifetime_s?: unknown }).lifetime_s;
      if (typeof lifetime !== 'number' || !Number.isInteger(lifetime) || lifetime < 1) {
        return new ParadexError(
          400,
          'VALIDATION_ERROR',
          'lifetime_s: a whole number of seconds',
        ).reply();
      }
      this.auth.tokenLifetimeS = lifetime;
      return setting();
    });
  }

  /** System config and state, markets and books, onboarding and the signed auth. */
  private addPublicRoutes(router: RouteTable): void {
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
      results: this.marketsOf(context.query.get('market')).map((m) =>
        marketSummary(m, this.basis(m)),
      ),
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
  }

  /** The bearer token's reads (each one of P5): balance, positions, orders, fills, funding. */
  private addAccountReads(router: RouteTable): void {
    const priv = (
      path: string,
      answer: (venue: VenueEngine, call: PrivateCall) => unknown,
    ): void => {
      router.add('GET', `${BASE}/${path}`, (context) => this.read(context, answer));
    };
    priv('balance', (venue, call) => ({
      results: balances(
        venue,
        call.accountId,
        this.deps.funding.holdings(PARADEX, call.accountId),
        (asset) => heldAssetPrice(this.deps.world(), asset),
      ),
    }));
    priv('positions', (venue, call) => ({ results: positions(venue, call.accountId) }));
    priv('orders', (venue, call) => ({
      results: this.orders.open(venue, call.accountId, call.context.query.get('market')),
    }));
    priv('orders-history', (venue, call) =>
      this.orders.history(venue, call.accountId, call.context.query),
    );
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
    priv('funding/payments', (venue, call) =>
      fundingPayments(venue.funding.paymentsOf(call.accountId), call.address, call.context.query),
    );
  }

  /** Placing and cancelling (by id or by client id), one order or a batch (one unit of P4 each). */
  private addOrderRoutes(router: RouteTable): void {
    // Before `orders/:order_id`, which would take `batch` for an id.
    router.add('POST', `${BASE}/orders/batch`, (context) =>
      this.write(context, (request, account) =>
        this.batches.place(request, account, parseJson(context.rawBody)),
      ),
    );
    router.add('DELETE', `${BASE}/orders/batch`, (context) =>
      this.write(context, (request, account) =>
        this.batches.cancel(request, account, parseJson(context.rawBody)),
      ),
    );
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
      return await act(this.admitted(context, accountId, 'order'), account);
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
        this.admitted(context, accountId, 'private GET'),
        undefined,
        (venue) => {
          // Cancels the venue queued act before a later request is served.
          this.orders.cancels.settle(venue);
          return { status: 200, body: answer(venue, { context, accountId, address: account }) };
        },
      );
    } catch (error) {
      return this.refusal(error);
    }
  }

  /** The account's request, admitted by its pools (P4 orders, P5 reads). */
  private admitted(context: RequestContext, accountId: string, kind: ParadexKind): SignedRequest {
    this.limits.admit({ kind }, context.sourceAddress, accountId);
    return {
      venueId: PARADEX,
      accountId,
      channel: { cut: context.cutConnection, mute: () => undefined },
      limits: 'published',
    };
  }

  private basis(market: MarketState): number {
    return this.deps.world().prices.basisBps(PARADEX, market.spec.symbol);
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
    if (error instanceof OverPublishedLimit) {
      return paradexOverLimit(error);
    }
    throw error;
  }
}

/** A body of any JSON shape (a batch is a list); not JSON: BINDING_ERROR. */
function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw === '' ? '{}' : raw) as unknown;
  } catch {
    throw new ParadexError(400, 'BINDING_ERROR', 'invalid request body');
  }
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
