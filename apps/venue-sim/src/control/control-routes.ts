import Big from 'big.js';
import type { Side } from '../engine/order-book';
import type { Simulator } from '../engine/simulator';
import type { AccountDirectory } from '../api/account-directory';
import {
  HttpFailure,
  parseJson,
  type Handler,
  type HttpReply,
  type RequestContext,
  type Router,
} from '../api/http-kit';
import type { RateLimiter } from '../api/rate-limiter';
import { toHttpFailure } from '../api/sim-errors';
import type { StreamHub } from '../api/stream-hub';
import { parseCredentials } from '../api/venue-requests';
import { wireFill, wirePositions } from '../api/wire-format';
import type { FaultInjector } from './faults';
import type { Ticker } from './ticker';

export interface ControlDeps {
  world: () => Simulator;
  reset: (seed?: number) => void;
  seed: () => number;
  ticker: Ticker;
  faults: FaultInjector;
  hub: StreamHub;
  limiter: RateLimiter;
  directory: AccountDirectory;
  controlToken?: string;
}

const finite = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new HttpFailure(400, 'invalid_request', `${name} must be a number`);
  }
  return value;
};

const ok = (body: unknown = { ok: true }): HttpReply => ({ status: 200, body });

const nonNegativeInt = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new HttpFailure(400, 'invalid_request', `${name} must be a non-negative integer`);
  }
  return value;
};

/**
 * The test and benchmark control surface under /control: time (step, tick
 * interval, reset with a seed), faults (latency, dropped sockets, rejected or
 * delayed orders, frozen venues, price jumps, injected trades) and read-outs
 * (request counts, an account's fills and positions as the venue sees them).
 */
export function addControlRoutes(router: Router, deps: ControlDeps): void {
  const guard =
    (handler: Handler): Handler =>
    (context) => {
      if (deps.controlToken && context.headers['x-control-token'] !== deps.controlToken) {
        throw new HttpFailure(401, 'unauthorized', 'control token required');
      }
      try {
        return handler(context);
      } catch (error) {
        const venue = deps.world().venues.get(context.params['venue'] ?? '');
        throw venue ? toHttpFailure(error, venue) : error;
      }
    };
  const venueId = (context: RequestContext): string => {
    const id = context.params['venue'];
    if (!deps.world().venues.has(id))
      throw new HttpFailure(404, 'unknown_venue', `unknown venue ${id}`);
    return id;
  };
  const body = (context: RequestContext) => parseJson(context.rawBody);

  router
    .add(
      'GET',
      '/control/state',
      guard(() =>
        ok({
          seed: deps.seed(),
          steps: deps.world().steps,
          tick_ms: deps.ticker.tickMs,
          venues: [...deps.world().venues.keys()].map((id) => ({
            id,
            rate_limit_per_s: deps.limiter.limitOf(id),
            ...deps.faults.state(id),
          })),
        }),
      ),
    )
    .add(
      'POST',
      '/control/reset',
      guard((context) => {
        const { seed } = body(context);
        deps.reset(seed === undefined ? undefined : nonNegativeInt(seed, 'seed'));
        return ok({ seed: deps.seed() });
      }),
    )
    .add(
      'POST',
      '/control/step',
      guard((context) => {
        const count = nonNegativeInt(body(context)['count'] ?? 1, 'count');
        deps.world().step(count);
        return ok({ steps: deps.world().steps });
      }),
    )
    .add(
      'POST',
      '/control/clock',
      guard((context) => {
        deps.ticker.set(nonNegativeInt(body(context)['tick_ms'], 'tick_ms'));
        return ok({ tick_ms: deps.ticker.tickMs });
      }),
    )
    .add(
      'POST',
      '/control/assets/:asset/jump',
      guard((context) => {
        deps
          .world()
          .jump({ asset: context.params['asset'], bps: finite(body(context)['bps'], 'bps') });
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/jump',
      guard((context) => {
        const { bps, symbol } = body(context);
        deps.world().jump({
          venue: venueId(context),
          symbol: typeof symbol === 'string' ? symbol : undefined,
          bps: finite(bps, 'bps'),
        });
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/trade',
      guard((context) => {
        const { symbol, side, size, price } = body(context);
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
        const filled = deps
          .world()
          .venue(venueId(context))
          .injectTrade(symbol, side as Side, size, typeof price === 'string' ? price : undefined);
        return ok({ filled });
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/latency',
      guard((context) => {
        deps.faults.setLatency(venueId(context), nonNegativeInt(body(context)['ms'], 'ms'));
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/drop-ws',
      guard((context) => {
        const { block_ms: blockMs, wallet } = body(context);
        const id = venueId(context);
        if (blockMs !== undefined)
          deps.faults.blockSockets(id, nonNegativeInt(blockMs, 'block_ms'));
        return ok({ dropped: deps.hub.drop(id, typeof wallet === 'string' ? wallet : undefined) });
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/reject-next',
      guard((context) => {
        const { count, reason } = body(context);
        deps.faults.rejectNextOrders(
          venueId(context),
          nonNegativeInt(count, 'count'),
          typeof reason === 'string' ? reason : 'injected_rejection',
        );
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/delay-next',
      guard((context) => {
        const { count, ms } = body(context);
        deps.faults.delayNextOrders(
          venueId(context),
          nonNegativeInt(count, 'count'),
          nonNegativeInt(ms, 'ms'),
        );
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/freeze',
      guard((context) => {
        const mode = body(context)['mode'] ?? 'hang';
        if (mode !== 'hang' && mode !== 'halt')
          throw new HttpFailure(400, 'invalid_request', 'mode must be hang or halt');
        const id = venueId(context);
        deps.faults.freeze(id, mode);
        deps.world().frozen.add(id);
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/thaw',
      guard((context) => {
        const id = venueId(context);
        deps.world().frozen.delete(id);
        deps.faults.thaw(id);
        return ok();
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/rate-limit',
      guard((context) => {
        const perSecond = nonNegativeInt(body(context)['per_s'], 'per_s');
        deps.limiter.setLimit(venueId(context), perSecond);
        return ok();
      }),
    )
    .add(
      'GET',
      '/control/venues/:venue/request-counts',
      guard((context) => {
        const wallet = context.query.get('wallet');
        if (!wallet) throw new HttpFailure(400, 'invalid_request', 'wallet is required');
        return ok(deps.limiter.report(venueId(context), wallet.toLowerCase()));
      }),
    )
    .add(
      'POST',
      '/control/venues/:venue/accounts',
      guard((context) => {
        const raw = body(context);
        const id = venueId(context);
        const { accountId, created } = deps.directory.register(id, parseCredentials(raw), true);
        const account = deps.world().venue(id).account(accountId);
        if (typeof raw['collateral'] === 'string') account.collateral = new Big(raw['collateral']);
        return { status: created ? 201 : 200, body: { account: accountId, created } };
      }),
    )
    .add(
      'GET',
      '/control/venues/:venue/accounts/:wallet/fills',
      guard((context) => {
        const venue = deps.world().venue(venueId(context));
        const fills = venue.registry.fillsSince(
          context.params['wallet'].toLowerCase(),
          Number(context.query.get('since') ?? 0),
        );
        return ok({ fills: fills.map((fill) => wireFill(venue, fill)) });
      }),
    )
    .add(
      'GET',
      '/control/venues/:venue/accounts/:wallet/positions',
      guard((context) => {
        const venue = deps.world().venue(venueId(context));
        return ok({ positions: wirePositions(venue, context.params['wallet'].toLowerCase()) });
      }),
    );
}
