import { readMassCancel } from './extended-mass-cancel';
import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { heldAssetPrice } from '../held-assets';
import { limitedRoutes, type RouteTable } from '../limited-routes';
import {
  ExtendedAccounts,
  ExtendedError,
  ExtendedUnauthorized,
  type ExtendedAccount,
} from './extended-accounts';
import { ExtendedDeadMan } from './extended-dead-man';
import { EXTENDED, ExtendedOrders } from './extended-orders';
import { EXTENDED_REQUEST } from './extended-rate-limits';
import { fundingHistoryPage } from './extended-funding';
import {
  accountInfo,
  balance,
  collateralAsset,
  orderBook,
  fees,
  marketInfo,
  positions,
  spotBalances,
} from './extended-views';

const BASE = `/dialects/${EXTENDED}`;
const API = `${BASE}/api/v1`;

const ok = (data: unknown): HttpReply => ({ status: 200, body: { status: 'OK', data } });

/**
 * Extended's REST API (`/api/v1/...`) over the engine: markets and assets,
 * and for an `X-Api-Key` the account, balances, positions, orders
 * (extended-orders.ts), trades and funding payments (extended-funding.ts).
 * Every request is first admitted by the venue's per-IP limit (E1, one
 * request each, extended-rate-limits.ts); private requests then go the way
 * of the account's requests (latency, freeze, order faults).
 */
export class ExtendedRest {
  readonly accounts = new ExtendedAccounts();
  readonly orders: ExtendedOrders;
  readonly deadMan: ExtendedDeadMan;

  constructor(private readonly deps: DialectDeps) {
    this.orders = new ExtendedOrders(deps);
    this.deadMan = new ExtendedDeadMan(deps);
  }

  addRoutes(router: Router): void {
    const api = limitedRoutes(router, {
      limits: this.deps.limits.of(EXTENDED),
      requestOf: () => EXTENDED_REQUEST,
      // "a 429 status code will be returned": no body, code or header is documented.
      overLimit: () => ({ status: 429, body: {} }),
    });
    this.addPublicRoutes(api);
    this.addAccountReads(api);
    this.addOrderRoutes(api);
    this.addSimRoutes(router);
  }

  /** Markets, assets and books. */
  private addPublicRoutes(router: RouteTable): void {
    router.add('GET', `${API}/info/markets`, () =>
      ok([...this.venue().markets.values()].map((m) => marketInfo(m, this.basis(m)))),
    );
    router.add('GET', `${API}/info/assets`, () => ok([collateralAsset()]));
    router.add('GET', `${API}/info/markets/:market/orderbook`, (context) => {
      const market = this.venue().markets.get(context.params['market'] ?? '');
      return market
        ? ok(orderBook(market))
        : new ExtendedError(404, 1001, 'Market not found.').reply();
    });
  }

  /** The simulator's own controls: API keys as the venue's app issues them, the placement queue. */
  private addSimRoutes(router: Router): void {
    router.add('GET', `${BASE}/_sim/queue`, () => ({
      status: 200,
      body: this.orders.queue.state(),
    }));
    router.add('POST', `${BASE}/_sim/queue`, (context) => {
      const body = JSON.parse(context.rawBody || '{}') as { hold?: unknown };
      this.orders.queue.hold(body.hold === true);
      return { status: 200, body: this.orders.queue.state() };
    });
    router.add('POST', `${BASE}/_sim/api-keys`, (context) => {
      try {
        const body = JSON.parse(context.rawBody || '{}') as Record<string, unknown>;
        const account = this.accounts.issue(
          String(body['wallet'] ?? ''),
          String(body['stark_key'] ?? ''),
        );
        return {
          status: 201,
          body: {
            api_key: account.apiKey,
            account_id: account.accountId,
            l2_vault: String(account.vault),
          },
        };
      } catch (error) {
        if (error instanceof ExtendedError) {
          return error.reply();
        }
        return new ExtendedError(400, 1133, 'body must be JSON').reply();
      }
    });
  }

  /** The reads of an `X-Api-Key`: account, balances, positions, fees, orders, trades, funding. */
  private addAccountReads(router: RouteTable): void {
    const read = (
      path: string,
      answer: (venue: VenueEngine, account: ExtendedAccount, context: RequestContext) => unknown,
    ) =>
      router.add('GET', `${API}/${path}`, (context) =>
        this.private(context, (request, account) =>
          this.deps.orders.execute(request, undefined, (venue) =>
            ok(answer(venue, account, context)),
          ),
        ),
      );
    read('user/account/info', (_venue, account) => accountInfo(account));
    read('user/balance', (venue, account) => balance(venue, account.wallet));
    read('user/spot/balances', (venue, account) =>
      spotBalances(venue, account, this.deps.funding.holdings(EXTENDED, account.wallet), (asset) =>
        heldAssetPrice(this.deps.world(), asset),
      ),
    );
    read('user/positions', (venue, account) => positions(venue, account));
    read('user/fees', (venue) => fees(venue));
    read('user/orders', (venue, account, context) =>
      this.orders.open(venue, account, account.wallet, context.query.get('market')),
    );
    read('user/orders/external/:external_id', (venue, account, context) => [
      this.orders.lookup(venue, account, account.wallet, {
        externalId: context.params['external_id'],
      }),
    ]);
    read('user/orders/:order_id', (venue, account, context) =>
      this.orders.lookup(venue, account, account.wallet, { id: context.params['order_id'] }),
    );
    // Paginated: the page and its `pagination` beside `data`.
    const paged = (
      path: string,
      page: (venue: VenueEngine, account: ExtendedAccount, query: URLSearchParams) => object,
    ) =>
      router.add('GET', `${API}/${path}`, (context) =>
        this.private(context, (request, account) =>
          this.deps.orders.execute(request, undefined, (venue) => ({
            status: 200,
            body: { status: 'OK', ...page(venue, account, context.query) },
          })),
        ),
      );
    paged('user/trades', (venue, account, query) =>
      this.orders.trades(venue, account, account.wallet, query),
    );
    paged('user/funding/history', (venue, account, query) =>
      fundingHistoryPage(venue, account, venue.funding.paymentsOf(account.wallet), query),
    );
  }

  /** Placing and cancelling (by id, by external id, en masse), and the dead-man switch. */
  private addOrderRoutes(router: RouteTable): void {
    router.add('POST', `${API}/user/order`, (context) =>
      this.private(context, (request, account) => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(context.rawBody) as Record<string, unknown>;
        } catch {
          throw new ExtendedError(400, 1133, 'Invalid order parameters.');
        }
        return this.orders.place(request, account, body);
      }),
    );
    router.add('DELETE', `${API}/user/order/:order_id`, (context) =>
      this.private(context, (request) =>
        this.orders.cancel(request, { id: context.params['order_id'] }),
      ),
    );
    router.add('DELETE', `${API}/user/order`, (context) =>
      this.private(context, (request) =>
        this.orders.cancel(request, { externalId: context.query.get('externalId') ?? '' }),
      ),
    );
    router.add('POST', `${API}/user/order/massCancel`, (context) =>
      this.private(context, (request) =>
        this.orders.massCancel(request, readMassCancel(context.rawBody)),
      ),
    );
    router.add('POST', `${API}/user/deadmanswitch`, (context) =>
      this.private(context, (request) =>
        this.deadMan.countdown(request, context.query.get('countdownTime')),
      ),
    );
  }

  private async private(
    context: RequestContext,
    act: (request: SignedRequest, account: ExtendedAccount) => Promise<HttpReply>,
  ): Promise<HttpReply> {
    try {
      const account = this.accounts.ofKey(context.headers['x-api-key']);
      if (!this.deps.funding.account(EXTENDED, account.wallet)) {
        throw new ExtendedError(400, 1004, 'Account not found.');
      }
      const request: SignedRequest = {
        venueId: EXTENDED,
        accountId: account.wallet,
        channel: { cut: context.cutConnection, mute: () => undefined },
        limits: 'published',
      };
      return await act(request, account);
    } catch (error) {
      if (error instanceof AnswerLost) {
        throw error;
      }
      if (error instanceof ExtendedError || error instanceof ExtendedUnauthorized) {
        return error.reply();
      }
      throw error;
    }
  }

  private basis(market: MarketState): number {
    return this.deps.world().prices.basisBps(EXTENDED, market.spec.symbol);
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(EXTENDED);
  }
}
