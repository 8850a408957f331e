import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@sts/platform';
import { AccountDirectory } from './api/account-directory';
import { Router } from './api/http-kit';
import { RateLimiter } from './api/rate-limiter';
import { StreamHub } from './api/stream-hub';
import { OrderEntry } from './api/order-entry';
import { addVenueRoutes } from './api/venue-routes';
import { ASSETS } from './config/assets';
import { resolveVenueProfiles } from './config/venue-selection';
import { addControlRoutes } from './control/control-routes';
import { FaultInjector } from './control/faults';
import { TakerFlows } from './control/taker-flows';
import { Ticker } from './control/ticker';
import { Simulator } from './engine/simulator';
import { DIALECT_RATE_LIMITS, DialectLimits } from './dialects/dialect-limits';
import { DialectProfiles, type Profile } from './dialects/dialect-profiles';
import { DIALECT_READINGS, DIALECT_TIMINGS } from './dialects/dialect-readings';
import { DialectTimings } from './dialects/dialect-timings';
import { DialectSet } from './dialects/dialect-set';
import { SocketSources } from './dialects/socket-sources';
import { FundedWallets } from './dialects/funded-wallets';
import type { LimitAdjustment } from './dialects/published-limits';
import { DIALECTS } from './dialects/registry';

export interface VenueSimOptions {
  /** Called as each HTTP request is answered (the simulator's request counts). */
  onAnswered?: (path: string, status: number) => void;
  seed?: number;
  /** Real milliseconds between simulation steps; 0 = manual stepping through /control/step. */
  tickMs?: number;
  host?: string;
  /** 0 (the default here) picks a free port. */
  port?: number;
  /** Venue ids, each optionally shaped like a known one: `hyperliquid`, `sandbox=paradex`. */
  venues?: readonly string[];
  /** Per-venue request limit per account and second of the paper protocol, over the profiles' defaults. */
  rateLimits?: Readonly<Record<string, number>>;
  /**
   * Changes to a dialect's published pools from the start (tests only; the
   * same as `PUT /control/dialects/<venue>/rate-limits`). Without it every
   * dialect enforces its venue's published numbers.
   */
  dialectRateLimits?: Readonly<Record<string, LimitAdjustment>>;
  /** Trust-on-first-use registration of paper API keys (default true). */
  selfRegistration?: boolean;
  volScale?: number;
  /** Readings the dialects play where the venues' documents are silent, per venue (`dialect-profiles.ts`). */
  dialectProfiles?: Readonly<Record<string, Profile>>;
  /**
   * The times the dialects' readings play with, per venue, over their
   * defaults (`dialect-timings.ts`; the same as `POST
   * /control/dialects/<venue>/timing`).
   */
  dialectTimings?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * Who each venue's takers are from the start, per venue
   * (`informed_taker_share`, `informed_horizon_ms`; the same as `POST
   * /control/venues/<venue>/flow`). Without it every taker is random.
   */
  takerFlows?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** When set, /control requires the `x-control-token` header. */
  controlToken?: string;
  logger?: Logger;
}

export interface RunningVenueSim {
  /** Base URL, e.g. http://127.0.0.1:7100; a venue lives at `${url}/venues/<id>`. */
  url: string;
  port: number;
  world(): Simulator;
  stop(): Promise<void>;
}

/** The simulator's collaborators, each reaching the current world through a getter (reset replaces it). */
interface SimParts {
  directory: AccountDirectory;
  faults: FaultInjector;
  limiter: RateLimiter;
  /** The dialects' published pools. */
  limits: DialectLimits;
  orders: OrderEntry;
  hub: StreamHub;
  funding: FundedWallets;
  dialects: DialectSet;
  /** The addresses the dialects' sockets came from. */
  socketSources: SocketSources;
  profiles: DialectProfiles;
  timings: DialectTimings;
  flows: TakerFlows;
  /** Every socket of a venue, paper or dialect, drops together. */
  sockets: { drop(venue?: string, accountId?: string): number };
}

/**
 * Starts the paper exchange: every configured venue's HTTP endpoints and
 * WebSocket streams on one port, plus /control. Used by main.ts, by the
 * simulator's own specs and by the benchmark.
 */
export async function startVenueSim(options: VenueSimOptions = {}): Promise<RunningVenueSim> {
  const logger = options.logger ?? createLogger('venue-sim', 'warn');
  const profiles = resolveVenueProfiles(options.venues);
  let seed = options.seed ?? 1;
  let epoch = 1;
  let world!: Simulator;
  const parts = createParts(options, profiles, () => world, logger);
  const { directory, faults, limiter, orders, hub, dialects, sockets } = parts;
  const build = (): Simulator =>
    new Simulator({
      seed,
      epoch,
      venues: profiles,
      assets: ASSETS,
      now: Date.now,
      sink: dialects,
      volScale: options.volScale,
      informedFlow: (venue) => parts.flows.of(venue),
    });
  world = build();
  const ticker = new Ticker(() => world.step());
  ticker.set(options.tickMs ?? 100);

  const router = new Router();
  addVenueRoutes(router, { world: () => world, directory, orders });
  dialects.addRoutes(router);
  const reset = (nextSeed?: number): void => {
    seed = nextSeed ?? seed;
    epoch += 1;
    faults.reset();
    limiter.clearCounts();
    parts.limits.clearCounts();
    parts.socketSources.clear();
    world = build();
    sockets.drop();
  };
  addControlRoutes(router, {
    ...{ world: () => world, seed: () => seed, reset, ticker, faults, hub: sockets, limiter },
    ...{ directory, funding: parts.funding, profiles: parts.profiles, limits: parts.limits },
    timings: parts.timings,
    socketSources: parts.socketSources,
    flows: parts.flows,
    controlToken: options.controlToken,
  });
  router.add('GET', '/health', () => ({ status: 200, body: { status: 'ok' } }));

  const server = createSimServer(router, parts, options.onAnswered);
  const { url, port } = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    url,
    port,
    world: () => world,
    stop: async () => {
      ticker.stop();
      faults.reset();
      hub.close();
      dialects.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function createParts(
  options: VenueSimOptions,
  profiles: ReturnType<typeof resolveVenueProfiles>,
  world: () => Simulator,
  logger: Logger,
): SimParts {
  const directory = new AccountDirectory(options.selfRegistration ?? true);
  const faults = new FaultInjector();
  const limiter = new RateLimiter(
    new Map(profiles.map((p) => [p.id, options.rateLimits?.[p.id] ?? p.rateLimitPerS])),
  );
  const orders = new OrderEntry({ world, limiter, faults });
  const hub = new StreamHub(world, directory, faults, orders, logger);
  const funding = new FundedWallets(world);
  const readings = new DialectProfiles(DIALECT_READINGS, options.dialectProfiles);
  const timings = new DialectTimings(DIALECT_TIMINGS, options.dialectTimings);
  const limits = new DialectLimits(DIALECT_RATE_LIMITS, options.dialectRateLimits);
  const flows = new TakerFlows(
    profiles.map((profile) => profile.id),
    options.takerFlows,
  );
  const socketSources = new SocketSources();
  const dialects = new DialectSet(
    DIALECTS,
    profiles.map((profile) => profile.id),
    { world, orders, faults, funding, profiles: readings, timings, limits, logger },
    hub,
    socketSources,
  );
  const sockets = {
    drop: (venue?: string, accountId?: string): number =>
      hub.drop(venue, accountId) + dialects.drop(venue, accountId),
  };
  return {
    directory,
    faults,
    limiter,
    limits,
    orders,
    hub,
    funding,
    dialects,
    socketSources,
    profiles: readings,
    timings,
    flows,
    sockets,
  };
}

/** The HTTP server: requests to the router, socket upgrades to the dialects, else the paper hub. */
function createSimServer(
  router: Router,
  { dialects, hub }: SimParts,
  answered: VenueSimOptions['onAnswered'],
): Server {
  const server: Server = createServer((request, response) => {
    if (answered) {
      response.once('finish', () => answered(request.url ?? '/', response.statusCode));
    }
    void router.handle(request, response);
  });
  server.keepAliveTimeout = 60_000;
  server.on('upgrade', (request, socket, head) => {
    // An upgrade's socket is ours from here, errors included: a client that resets while its
    // upgrade is refused (or answered) must not take the simulator down.
    socket.on('error', () => socket.destroy());
    if (!dialects.handleUpgrade(request, socket, head)) {
      hub.handleUpgrade(request, socket, head);
    }
  });
  return server;
}

async function listen(
  server: Server,
  port: number,
  host: string,
): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}`, port: address.port };
}
