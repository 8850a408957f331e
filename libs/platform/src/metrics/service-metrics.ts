import { collectDefaultMetrics, Registry } from 'prom-client';

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
