import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';
import type { ConnectionRegistry } from './connections/connection-registry';

/**
 * The notifier's series: HTTP requests and upgrades by route and status with
 * their time, and, read from its connection registry when scraped (the
 * fan-out path only bumps plain counters), sockets, subscriptions, frames
 * sent and dropped, slow consumers closed.
 */
export interface NotifierMetrics {
  registry: Registry;
  /** An HTTP request or upgrade answered (the WebSocket gateway's `onAnswered`). */
  recordAnswered(route: string, status: number, seconds: number): void;
}

export function notifierMetrics(connections: ConnectionRegistry): NotifierMetrics {
  const registry = createServiceRegistry('notifier');
  const registers = [registry];
  const requests = new Counter<'route' | 'status'>({
    name: 'sts_notifier_http_requests_total',
    help: 'HTTP requests and WebSocket upgrades answered, by route and status (101: upgraded)',
    labelNames: ['route', 'status'],
    registers,
  });
  const duration = new Histogram<'route'>({
    name: 'sts_notifier_http_request_duration_seconds',
    help: 'Time to answer an HTTP request or an upgrade (its header authentication included)',
    labelNames: ['route'],
    buckets: REQUEST_LATENCY_BUCKETS_S,
    registers,
  });
  registerConnectionSeries(connections, registers);
  return {
    registry,
    recordAnswered: (route, status, seconds) => {
      requests.inc({ route, status: String(status) });
      duration.observe({ route }, seconds);
    },
  };
}

/** Series read from the connection registry when scraped: the fan-out path only bumps counters. */
function registerConnectionSeries(connections: ConnectionRegistry, registers: Registry[]): void {
  const { counts } = connections;
  new Gauge({
    name: 'sts_notifier_connections',
    help: 'WebSocket connections held',
    registers,
    collect() {
      this.set(connections.size);
    },
  });
  new Gauge({
    name: 'sts_notifier_subscriptions',
    help: 'Trade subscriptions held (one per trade, one per all-of-my-trades)',
    registers,
    collect() {
      this.set(connections.subscriptionCount());
    },
  });
  const total = (name: string, help: string, read: () => number): void => {
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  };
  total('sts_notifier_messages_sent_total', 'Frames written to sockets', () => counts.framesSent);
  total(
    'sts_notifier_messages_dropped_total',
    'Frames refused because the socket was a slow consumer',
    () => counts.framesDropped,
  );
  total(
    'sts_notifier_slow_consumer_closes_total',
    'Sockets closed as slow consumers',
    () => counts.slowConsumerCloses,
  );
}
