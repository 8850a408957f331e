import { Counter, Gauge, type Registry } from 'prom-client';
import { createServiceRegistry } from '@sts/platform';
import type { ConnectionRegistry } from './connections/connection-registry';

/**
 * The notifier's series, read from its connection registry when scraped (the
 * fan-out path only bumps plain counters): sockets, subscriptions, frames
 * sent and dropped, slow consumers closed.
 */
export function notifierMetrics(connections: ConnectionRegistry): Registry {
  const registry = createServiceRegistry('notifier');
  const registers = [registry];
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
  return registry;
}
