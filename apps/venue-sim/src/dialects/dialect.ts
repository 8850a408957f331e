import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@sts/platform';
import type { Router } from '../api/http-kit';
import type { OrderEntry } from '../api/order-entry';
import type { FaultInjector } from '../control/faults';
import type { Simulator } from '../engine/simulator';
import type { EngineFill, EngineOrder, EngineSink } from '../engine/types';
import type { DialectLimits } from './dialect-limits';
import type { DialectProfiles } from './dialect-profiles';
import type { DialectTimings } from './dialect-timings';
import type { FundedWallets } from './funded-wallets';

/** What every dialect gets: the same engine, order path and faults as the paper protocol. */
export interface DialectDeps {
  world: () => Simulator;
  /**
   * The paper protocol's request path (lose-next, latency, delay-next,
   * freeze, expiry, reject-next, engine). A dialect passes order requests in
   * the paper vocabulary (`fields.type`: `post_only` | `ioc`,
   * `fields.expires_at_ms`) so the faults match them, and maps the HttpFailure
   * it may throw to the venue's own error shape. Its requests are `limits:
   * 'published'`: the dialect admitted them by its venue's pools (`limits`),
   * so the paper per-second limit does not count them.
   */
  orders: OrderEntry;
  /** Each venue's published request limits (`published-limits.ts`): a dialect admits every request through its own. */
  limits: DialectLimits;
  faults: FaultInjector;
  /** Wallets funded through `POST /control/venues/<id>/deposits`. */
  funding: FundedWallets;
  /** The readings each dialect plays where its venue's documents are silent (`dialect-profiles.ts`). */
  profiles: DialectProfiles;
  /** The times some readings play with (`dialect-timings.ts`). */
  timings: DialectTimings;
  logger: Logger;
}

/**
 * One venue's own wire protocol over the simulator's engine, served under
 * `/dialects/<venue>`. A dialect is an engine sink too: it receives every
 * book change, order update and fill, and streams them in its own format.
 */
export interface Dialect extends EngineSink {
  /** The venue id it serves (also its path segment: `/dialects/<venue>`). */
  readonly venue: string;
  /** Adds its HTTP routes (every path starts with `/dialects/<venue>`). */
  addRoutes(router: Router): void;
  /** Takes a WebSocket upgrade whose path starts with `/dialects/<venue>`. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Cuts its sockets (of one account when given) like a network failure; returns how many. */
  drop(accountId?: string): number;
  close(): void;
}

export type DialectFactory = (deps: DialectDeps) => Dialect;

/** A dialect's WebSocket side: upgrades, cuts, and the engine's changes in the venue's frames. */
export interface DialectStreams {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  drop(accountId?: string): number;
  close(): void;
  book(symbol: string): void;
  order(order: EngineOrder): void;
  /** Absent where the venue streams no fills (their orders' updates carry them). */
  fill?(fill: EngineFill): void;
}

/** A dialect made of its HTTP routes and its streams. */
export function dialectOf(
  venue: string,
  addRoutes: (router: Router) => void,
  streams: DialectStreams,
): Dialect {
  return {
    venue,
    addRoutes,
    handleUpgrade: (request, socket, head) => streams.handleUpgrade(request, socket, head),
    drop: (accountId) => streams.drop(accountId),
    close: () => streams.close(),
    book: (_venue, symbol) => streams.book(symbol),
    order: (_venue, order) => streams.order(order),
    fill: (_venue, fill) => streams.fill?.(fill),
  };
}
