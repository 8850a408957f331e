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
import type { DialectLimits } from '../dialects/dialect-limits';
import type { DialectProfiles } from '../dialects/dialect-profiles';
import type { DialectTimings } from '../dialects/dialect-timings';
import type { FundedWallets } from '../dialects/funded-wallets';
import type { SocketSources } from '../dialects/socket-sources';
import type { Simulator } from '../engine/simulator';
import type { FaultInjector } from './faults';
import type { TakerFlows } from './taker-flows';
import type { Ticker } from './ticker';

export interface ControlDeps {
  world: () => Simulator;
  reset: (seed?: number) => void;
  seed: () => number;
  ticker: Ticker;
  faults: FaultInjector;
  /** Every socket of the venues, paper and dialects. */
  hub: { drop(venue?: string, accountId?: string): number };
  limiter: RateLimiter;
  directory: AccountDirectory;
  funding: FundedWallets;
  /** The readings the dialects play (`/control/dialects/:venue/profile`). */
  profiles: DialectProfiles;
  /** The times the dialects' readings play with (`/control/dialects/:venue/timing`). */
  timings: DialectTimings;
  /** The dialects' published pools (`/control/dialects/:venue/rate-limits`). */
  limits: DialectLimits;
  /** Where the dialects' sockets came from (`/control/dialects/:venue/socket-sources`). */
  socketSources: SocketSources;
  /** Who each venue's takers are (`/control/venues/:venue/flow`). */
  flows: TakerFlows;
  controlToken?: string;
}

export const ok = (body: unknown = { ok: true }): HttpReply => ({ status: 200, body });

export const finite = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new HttpFailure(400, 'invalid_request', `${name} must be a number`);
  }
  return value;
};

export const nonNegativeInt = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new HttpFailure(400, 'invalid_request', `${name} must be a non-negative integer`);
  }
  return value;
};

/** Registers /control routes behind the optional control token, with the engine's errors mapped. */
export class ControlRoutes {
  constructor(
    private readonly router: Router,
    readonly deps: ControlDeps,
  ) {}

  add(method: string, path: string, handler: Handler): this {
    this.router.add(method, path, (context) => {
      const { controlToken } = this.deps;
      if (controlToken && context.headers['x-control-token'] !== controlToken) {
        throw new HttpFailure(401, 'unauthorized', 'control token required');
      }
      try {
        return handler(context);
      } catch (error) {
        const venue = this.deps.world().venues.get(context.params['venue'] ?? '');
        throw venue ? toHttpFailure(error, venue) : error;
      }
    });
    return this;
  }

  venueId(context: RequestContext): string {
    const id = context.params['venue'];
    if (!this.deps.world().venues.has(id)) {
      throw new HttpFailure(404, 'unknown_venue', `unknown venue ${id}`);
    }
    return id;
  }

  body(context: RequestContext): Record<string, unknown> {
    return parseJson(context.rawBody);
  }
}
