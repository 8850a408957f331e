import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Default series whose collection walks every socket the process holds
 * (a directory listing of /proc/self/fd, every libuv handle and resource):
 * with the 1,500 sockets of a worker holding 500 trades they took 3 to 5 ms
 * of each scrape, a pause of the event loop that trades would wait behind.
 */
const COSTLY_DEFAULTS = [
  'process_open_fds',
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
];

/**
 * A service's own metrics registry: process and Node.js figures (CPU, memory,
 * event-loop delay as `nodejs_eventloop_lag_*`, GC) plus whatever the service
 * registers on it. One registry per service instance, never prom-client's
 * global one, so specs that run several services in one process do not
 * collide. Every series carries `service`; labels stay bounded (a venue, a
 * market, a route, a status, never a trade or user id).
 */
export function createServiceRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  for (const name of COSTLY_DEFAULTS) {
    registry.removeSingleMetric(name);
  }
  return registry;
}

/** Histogram buckets in seconds for latencies on the money path (sub-millisecond to 10 s). */
export const FAST_LATENCY_BUCKETS_S = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Histogram buckets in seconds for request handling (HTTP, NATS). */
export const REQUEST_LATENCY_BUCKETS_S = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];
