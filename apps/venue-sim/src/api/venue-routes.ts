import type { WirePlaceOrder } from '@sts/venues';
import type { FaultInjector } from '../control/faults';
import type { Simulator } from '../engine/simulator';
import type { CancelCommand } from '../engine/types';
import type { VenueEngine } from '../engine/venue-engine';
import type { AccountDirectory } from './account-directory';
import {
  HttpFailure,
  parseJson,
  type HttpReply,
  type RequestContext,
  type Router,
} from './http-kit';
import type { RateLimiter } from './rate-limiter';
import { toHttpFailure } from './sim-errors';
import { parseCredentials, parsePlaceOrder } from './venue-requests';
import {
  wireBalances,
  wireBookLevels,
  wireFill,
  wireMarket,
  wireOrder,
  wirePositions,
} from './wire-format';

export interface VenueRouteDeps {
  world: () => Simulator;
  directory: AccountDirectory;
  limiter: RateLimiter;
  faults: FaultInjector;
}

type SignedHandler = (context: RequestContext, venue: VenueEngine, accountId: string) => HttpReply;

/** The public and signed endpoints of every venue, under /venues/:venue. */
export function addVenueRoutes(router: Router, deps: VenueRouteDeps): void {
  const venueOf = (context: RequestContext): VenueEngine => {
    const venue = deps.world().venues.get(context.params['venue']);
    if (!venue)
      throw new HttpFailure(404, 'unknown_venue', `unknown venue ${context.params['venue']}`);
    return venue;
  };

  /** Signature, then the account's rate limit, then injected faults, then the engine. */
  const signed =
    (handler: SignedHandler, isOrder = false) =>
    async (context: RequestContext): Promise<HttpReply> => {
      const venueId = venueOf(context).id;
      const now = Date.now();
      const accountId = deps.directory.authenticate(
        venueId,
        context.headers,
        context.method,
        context.pathWithQuery,
        context.rawBody,
        now,
      );
      deps.limiter.admit(venueId, accountId, now);
      await deps.faults.beforeRequest(venueId);
      if (isOrder) await deps.faults.beforeOrder(venueId);
      const venue = venueOf(context);
      try {
        return handler(context, venue, accountId);
      } catch (error) {
        throw toHttpFailure(error, venue);
      }
    };

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
      if (!market)
        throw new HttpFailure(404, 'unknown_market', `unknown market ${context.params['symbol']}`);
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
    })
    .add(
      'POST',
      '/venues/:venue/orders',
      signed((context, venue, accountId) => {
        const body: WirePlaceOrder = parsePlaceOrder(parseJson(context.rawBody));
        const outcome = venue.desk.place(accountId, {
          symbol: body.symbol,
          side: body.side,
          type: body.type,
          price: body.price,
          size: body.size,
          clientOrderId: body.client_order_id,
        });
        return {
          status: outcome.duplicate ? 200 : 201,
          body: {
            order: wireOrder(venue, outcome.order),
            fills: outcome.fills.map((fill) => wireFill(venue, fill)),
            duplicate: outcome.duplicate,
          },
        };
      }, true),
    )
    .add(
      'DELETE',
      '/venues/:venue/orders',
      signed((context, venue, accountId) => {
        const order = venue.desk.cancel(accountId, cancelTarget(context));
        return { status: 200, body: { order: wireOrder(venue, order) } };
      }),
    )
    .add(
      'GET',
      '/venues/:venue/order',
      signed((context, venue, accountId) => ({
        status: 200,
        body: { order: wireOrder(venue, venue.desk.find(accountId, cancelTarget(context))) },
      })),
    )
    .add(
      'GET',
      '/venues/:venue/orders/open',
      signed((context, venue, accountId) => {
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
      signed((context, venue, accountId) => {
        const since = Number(context.query.get('since') ?? 0);
        if (!Number.isFinite(since))
          throw new HttpFailure(400, 'invalid_request', 'since must be milliseconds');
        const fills = venue.registry.fillsSince(accountId, since);
        return { status: 200, body: { fills: fills.map((fill) => wireFill(venue, fill)) } };
      }),
    )
    .add(
      'GET',
      '/venues/:venue/positions',
      signed((_context, venue, accountId) => ({
        status: 200,
        body: { positions: wirePositions(venue, accountId) },
      })),
    )
    .add(
      'GET',
      '/venues/:venue/balances',
      signed((_context, venue, accountId) => ({
        status: 200,
        body: { balances: wireBalances(venue, accountId) },
      })),
    );
}

function cancelTarget(context: RequestContext): CancelCommand {
  const orderId = context.query.get('order_id');
  const clientOrderId = context.query.get('client_order_id');
  if (orderId) return { orderId };
  if (clientOrderId) return { clientOrderId };
  throw new HttpFailure(400, 'invalid_request', 'order_id or client_order_id is required');
}
