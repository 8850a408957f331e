import type { Router } from '../api/http-kit';
import { addAccountRoutes } from './account-routes';
import { addFundingRoutes } from './funding-routes';
import { ControlRoutes, type ControlDeps } from './control-kit';
import { addDeadManRoutes } from './dead-man-routes';
import { addDialectLimitRoutes } from './dialect-limit-routes';
import { addDialectProfileRoutes } from './dialect-profile-routes';
import { addDialectTimingRoutes } from './dialect-timing-routes';
import { addFaultRoutes } from './fault-routes';
import { addSocketSourceRoutes } from './socket-source-routes';
import { addTakerFlowRoutes } from './taker-flow-routes';
import { addTimeRoutes } from './time-routes';

export type { ControlDeps } from './control-kit';

/**
 * The test and benchmark control surface under /control: time (step, tick
 * interval, reset with a seed), faults (latency, dropped sockets, rejected or
 * delayed orders, frozen venues, price jumps, injected trades) and read-outs
 * (request counts, an account's fills and positions as the venue sees them),
 * who each venue's takers are (random or informed),
 * the readings each dialect plays where its venue is silent and the times
 * they play with, and the dialects' published rate-limit pools and the
 * addresses their sockets came from.
 */
export function addControlRoutes(router: Router, deps: ControlDeps): void {
  const routes = new ControlRoutes(router, deps);
  addTimeRoutes(routes);
  addFaultRoutes(routes);
  addTakerFlowRoutes(routes);
  addAccountRoutes(routes);
  addFundingRoutes(routes);
  addDialectProfileRoutes(routes);
  addDialectTimingRoutes(routes);
  addDialectLimitRoutes(routes);
  addSocketSourceRoutes(routes);
  addDeadManRoutes(routes);
}
