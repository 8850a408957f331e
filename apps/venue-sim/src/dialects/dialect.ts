import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@sts/platform';
import type { Router } from '../api/http-kit';
import type { OrderEntry } from '../api/order-entry';
import type { FaultInjector } from '../control/faults';
import type { Simulator } from '../engine/simulator';
import type { EngineSink } from '../engine/types';
import type { FundedWallets } from './funded-wallets';

/** What every dialect gets: the same engine, order path and faults as the paper protocol. */
export interface DialectDeps {
  world: () => Simulator;
  /**
   * The paper protocol's request path (rate limit, lose-next, latency,
   * delay-next, freeze, expiry, reject-next, engine). A dialect passes order
   * requests in the paper vocabulary (`fields.type`: `post_only` | `ioc`,
   * `fields.expires_at_ms`) so the faults match them, and maps the HttpFailure
   * it may throw to the venue's own error shape.
   */
  orders: OrderEntry;
  faults: FaultInjector;
  /** Wallets funded through `POST /control/venues/<id>/deposits`. */
  funding: FundedWallets;
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
