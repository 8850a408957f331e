import type { Simulator } from '../engine/simulator';
import type { VenueEngine } from '../engine/venue-engine';
import type { AccountDirectory } from './account-directory';
import {
  HttpFailure,
  parseJson,
  type HttpReply,
  type RequestContext,
  type Router,
} from './http-kit';
import type { OrderEntry, SignedRequest } from './order-entry';
import { parseCredentials, parseOrderTarget } from './venue-requests';
import {
  wireBalances,
  wireBookLevels,
  wireFill,
  wireFunding,
  wireMarket,
  wireOrder,
  wirePositions,
} from './wire-format';

export interface VenueRouteDeps {
  world: () => Simulator;
  directory: AccountDirectory;
  orders: OrderEntry;
}

type SignedHandler = (context: RequestContext, request: SignedRequest) => Promise<HttpReply>;
type SignedQuery = (context: RequestContext, venue: VenueEngine, accountId: string) => HttpReply;

/** What every route uses: the venue a path names, and the signed request's checks. */
interface RouteKit {
  venueOf: (context: RequestContext) => VenueEngine;
  /** The signature first; the handler passes the account's rate limit and faults (OrderEntry). */
  signed: (handler: SignedHandler) => (context: RequestContext) => Promise<HttpReply>;
  /** A signed read: admitted like any request, answered from the engine. */
  signedQuery: (answer: SignedQuery) => (context: RequestContext) => Promise<HttpReply>;
}

/** The public and signed endpoints of every venue, under /venues/:venue. */
export function addVenueRoutes(router: Router, deps: VenueRouteDeps): void {
  const kit = routeKit(deps);
  addMarketRoutes(router, deps, kit);
  addOrderRoutes(router, deps.orders, kit);
  addAccountReads(router, kit);
  addFundingReads(router, kit);
}

function routeKit(deps: VenueRouteDeps): RouteKit {
  const { orders } = deps;
  const venueOf = (context: RequestContext): VenueEngine => {
    const venue = deps.world().venues.get(context.params['venue']);
    if (!venue) {
      throw new HttpFailure(404, 'unknown_venue', `unknown venue ${context.params['venue']}`);
    }
    return venue;
  };

  const signed =
    (handler: SignedHandler) =>
    (context: RequestContext): Promise<HttpReply> => {
      const venueId = venueOf(context).id;
      const accountId = deps.directory.authenticate(
        venueId,
        context.headers,
        context.method,
        context.pathWithQuery,
        context.rawBody,
        Date.now(),
      );
      return handler(context, {
        venueId,
        accountId,
        // An HTTP request's answer goes nowhere but its own connection.
        channel: { cut: context.cutConnection, mute: () => undefined },
      });
    };

  const signedQuery = (answer: SignedQuery) =>
    signed((context, request) =>
      orders.execute(request, undefined, (venue) => answer(context, venue, request.accountId)),
    );
  return { venueOf, signed, signedQuery };
}

/** The venue's public face: its markets and books, and the registration of an API key. */
function addMarketRoutes(router: Router, deps: VenueRouteDeps, { venueOf }: RouteKit): void {
  router
    .add('GET', '/venues', () => ({
      status: 200,
      body: { venues: [...deps.world().venues.keys()] },
    }))
    .add('GET', '/venues/:venue/markets', (context) => {
      const venue = venueOf(context);
      const markets = [...venue.markets.values()].map((market) =>
        wireMarket(venue, market, deps.world().prices.basisBps(venue.id, market.spec.symbol)),
      );
      return { status: 200, body: { markets } };
    })
    .add('GET', '/venues/:venue/book/:symbol', (context) => {
      const venue = venueOf(context);
      const market = venue.markets.get(context.params['symbol']);
      if (!market) {
        throw new HttpFailure(404, 'unknown_market', `unknown market ${context.params['symbol']}`);
      }
      const depth = Math.min(Number(context.query.get('depth') ?? 50) || 50, 500);
      return {
        status: 200,
        body: {
          symbol: market.spec.symbol,
          seq: market.book.seq,
          bids: wireBookLevels(market, market.book.bids.top(depth)),
          asks: wireBookLevels(market, market.book.asks.top(depth)),
        },
      };
    })
    .add('POST', '/venues/:venue/accounts/register', (context) => {
      const venue = venueOf(context);
      const { accountId, created } = deps.directory.register(
        venue.id,
        parseCredentials(parseJson(context.rawBody)),
        false,
      );
      venue.account(accountId);
      return { status: created ? 201 : 200, body: { account: accountId, created } };
    });
}

/** Order entry over HTTP: place, replace (amend in one request), cancel. */
function addOrderRoutes(router: Router, orders: OrderEntry, { signed }: RouteKit): void {
  router
    .add(
      'POST',
      '/venues/:venue/orders',
      signed((context, request) => orders.place(request, parseJson(context.rawBody))),
    )
    .add(
      'POST',
      '/venues/:venue/orders/replace',
      signed((context, request) => orders.replace(request, parseJson(context.rawBody))),
    )
    .add(
      'DELETE',
      '/venues/:venue/orders',
      signed((context, request) => orders.cancel(request, Object.fromEntries(context.query))),
    );
}

/** The account's signed reads: an order, open orders, fills, positions, balances. */
function addAccountReads(router: Router, { signedQuery }: RouteKit): void {
  router
    .add(
      'GET',
      '/venues/:venue/order',
      signedQuery((context, venue, accountId) => ({
        status: 200,
        body: {
          order: wireOrder(
            venue,
            venue.desk.find(accountId, parseOrderTarget(Object.fromEntries(context.query))),
          ),
        },
      })),
    )
    .add(
      'GET',
      '/venues/:venue/orders/open',
      signedQuery((context, venue, accountId) => {
        const symbol = context.query.get('symbol');
        const orders = venue.registry
          .open(accountId)
          .filter((order) => !symbol || order.symbol === symbol);
        return { status: 200, body: { orders: orders.map((order) => wireOrder(venue, order)) } };
      }),
    )
    .add(
      'GET',
      '/venues/:venue/fills',
      signedQuery((context, venue, accountId) => {
        const since = Number(context.query.get('since') ?? 0);
        if (!Number.isFinite(since)) {
          throw new HttpFailure(400, 'invalid_request', 'since must be milliseconds');
        }
        const fills = venue.registry.fillsSince(accountId, since);
        return { status: 200, body: { fills: fills.map((fill) => wireFill(venue, fill)) } };
      }),
    )
    .add(
      'GET',
      '/venues/:venue/positions',
      signedQuery((_context, venue, accountId) => ({
        status: 200,
        body: { positions: wirePositions(venue, accountId) },
      })),
    )
    .add(
      'GET',
      '/venues/:venue/balances',
      signedQuery((_context, venue, accountId) => ({
        status: 200,
        body: { balances: wireBalances(venue, accountId) },
      })),
    );
}

/** The account's funding payments from a time on (`since`, ms), oldest first. */
function addFundingReads(router: Router, { signedQuery }: RouteKit): void {
  router.add(
    'GET',
    '/venues/:venue/funding',
    signedQuery((context, venue, accountId) => {
      const since = Number(context.query.get('since') ?? 0);
      if (!Number.isFinite(since)) {
        throw new HttpFailure(400, 'invalid_request', 'since must be milliseconds');
      }
      const payments = venue.funding.paymentsOf(accountId, since);
      return { status: 200, body: { funding: payments.map(wireFunding) } };
    }),
  );
}
