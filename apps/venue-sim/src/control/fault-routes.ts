import { HttpFailure } from '../api/http-kit';
import { finite, nonNegativeInt, ok, type ControlRoutes } from './control-kit';
import type { LoseNextRule, OrderKind } from './faults';

/** Faults and market moves: latency, dropped sockets, rejected/delayed orders, freezes, jumps, trades. */
export function addFaultRoutes(routes: ControlRoutes): void {
  addMarketMoves(routes);
  addConnectionFaults(routes);
  addOrderFaults(routes);
}

/** Moves of the market: a price jump of an asset or of one venue, a trade injected into a book. */
function addMarketMoves(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('POST', '/control/assets/:asset/jump', (context) => {
      deps
        .world()
        .jump({ asset: context.params['asset'], bps: finite(routes.body(context)['bps'], 'bps') });
      return ok();
    })
    .add('POST', '/control/venues/:venue/jump', (context) => {
      const { bps, symbol } = routes.body(context);
      deps.world().jump({
        venue: routes.venueId(context),
        symbol: typeof symbol === 'string' ? symbol : undefined,
        bps: finite(bps, 'bps'),
      });
      return ok();
    })
    .add('POST', '/control/venues/:venue/trade', (context) => {
      const { symbol, side, size, price } = routes.body(context);
      if (
        typeof symbol !== 'string' ||
        (side !== 'buy' && side !== 'sell') ||
        typeof size !== 'string'
      ) {
        throw new HttpFailure(
          400,
          'invalid_request',
          'symbol, side (buy|sell) and size are required',
        );
      }
      const venue = deps.world().venue(routes.venueId(context));
      return ok({
        filled: venue.injectTrade(
          symbol,
          side,
          size,
          typeof price === 'string' ? price : undefined,
        ),
      });
    })
    .add('POST', '/control/venues/:venue/fill-order', (context) => {
      const { symbol, order_id: orderId, size } = routes.body(context);
      if (typeof symbol !== 'string' || typeof orderId !== 'string' || typeof size !== 'string') {
        throw new HttpFailure(400, 'invalid_request', 'symbol, order_id and size are required');
      }
      const venue = deps.world().venue(routes.venueId(context));
      return ok({ filled: venue.fillOrder(symbol, orderId, size) });
    });
}

/** How a venue answers: its latency, its sockets dropped, frozen or thawed, its rate limit. */
function addConnectionFaults(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('POST', '/control/venues/:venue/latency', (context) => {
      deps.faults.setLatency(
        routes.venueId(context),
        nonNegativeInt(routes.body(context)['ms'], 'ms'),
      );
      return ok();
    })
    .add('POST', '/control/venues/:venue/drop-ws', (context) => {
      const { block_ms: blockMs, wallet } = routes.body(context);
      const id = routes.venueId(context);
      if (blockMs !== undefined) {
        deps.faults.blockSockets(id, nonNegativeInt(blockMs, 'block_ms'));
      }
      return ok({ dropped: deps.hub.drop(id, typeof wallet === 'string' ? wallet : undefined) });
    })
    .add('POST', '/control/venues/:venue/freeze', (context) => {
      const mode = routes.body(context)['mode'] ?? 'hang';
      if (mode !== 'hang' && mode !== 'halt') {
        throw new HttpFailure(400, 'invalid_request', 'mode must be hang or halt');
      }
      const id = routes.venueId(context);
      deps.faults.freeze(id, mode);
      deps.world().frozen.add(id);
      return ok();
    })
    .add('POST', '/control/venues/:venue/thaw', (context) => {
      const id = routes.venueId(context);
      deps.world().frozen.delete(id);
      deps.faults.thaw(id);
      return ok();
    })
    .add('POST', '/control/venues/:venue/rate-limit', (context) => {
      deps.limiter.setLimit(
        routes.venueId(context),
        nonNegativeInt(routes.body(context)['per_s'], 'per_s'),
      );
      return ok();
    });
}

/** What happens to the next order requests: refused, delayed, or their answers lost. */
function addOrderFaults(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('POST', '/control/venues/:venue/reject-next', (context) => {
      const { count, reason } = routes.body(context);
      const why = typeof reason === 'string' ? reason : 'injected_rejection';
      deps.faults.rejectNextOrders(routes.venueId(context), nonNegativeInt(count, 'count'), why);
      return ok();
    })
    .add('POST', '/control/venues/:venue/delay-next', (context) => {
      const { count, ms } = routes.body(context);
      deps.faults.delayNextOrders(
        routes.venueId(context),
        nonNegativeInt(count, 'count'),
        nonNegativeInt(ms, 'ms'),
      );
      return ok();
    })
    .add('POST', '/control/venues/:venue/lose-next', (context) => {
      deps.faults.loseNextOrders(routes.venueId(context), parseLoseNext(routes.body(context)));
      return ok();
    })
    .add('POST', '/control/venues/:venue/release-held', (context) => {
      const { as_of_ms: asOfMs } = routes.body(context);
      const released = deps.faults.releaseHeld(
        routes.venueId(context),
        nonNegativeInt(asOfMs, 'as_of_ms'),
      );
      return ok({ released });
    });
}

const oneOf = <T extends string>(
  value: unknown,
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T => {
  if (value === undefined && fallback !== undefined) {
    return fallback;
  }
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) {
    return value as T;
  }
  throw new HttpFailure(400, 'invalid_request', `${name} must be one of ${allowed.join(', ')}`);
};

/** The body of lose-next: which order requests (count, op, order_type, wallet) and how (at, then). */
function parseLoseNext(body: Record<string, unknown>): LoseNextRule {
  const { count, op, order_type: orderType, wallet, at, then } = body;
  const { hang_ms: hangMs, block_ms: blockMs } = body;
  if (wallet !== undefined && typeof wallet !== 'string') {
    throw new HttpFailure(400, 'invalid_request', 'wallet must be a string');
  }
  return {
    count: count === undefined ? 1 : nonNegativeInt(count, 'count'),
    op: oneOf(op, 'op', ['place', 'cancel', 'replace', 'any'], 'any'),
    ...(orderType !== undefined
      ? { orderType: oneOf<OrderKind>(orderType, 'order_type', ['post_only', 'ioc']) }
      : {}),
    ...(wallet !== undefined ? { wallet: wallet.toLowerCase() } : {}),
    at: oneOf(at, 'at', ['before', 'after']),
    then: oneOf(then, 'then', ['drop', 'hang']),
    hangMs: hangMs === undefined ? 0 : nonNegativeInt(hangMs, 'hang_ms'),
    blockMs: blockMs === undefined ? 0 : nonNegativeInt(blockMs, 'block_ms'),
  };
}
