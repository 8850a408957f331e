import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';
import type { AttemptOutcome } from '@sts/persistence';
import type { ConnectionRegistry } from './connections/connection-registry';
import type { EventsConsumerFigures } from './events.subscriber';

/** The webhook series, bumped by the intake and the dispatcher. */
export interface WebhookSeries {
  /** Deliveries owed by the intake (one per event and endpoint, duplicates left out). */
  enqueued(count: number): void;
  /** An attempt recorded: what it came to and how long it took. */
  attempted(outcome: AttemptOutcome['kind'], seconds: number): void;
  /** A delivery started (+1) or ended (-1). */
  sending(delta: number): void;
  /** An endpoint disabled (410 Gone, or failing too long). */
  disabled(): void;
}

/**
 * The notifier's series: HTTP requests and upgrades by route and status with
 * their time, and, read from its connection registry when scraped (the
 * fan-out path only bumps plain counters), sockets, subscriptions, frames
 * sent and dropped, slow consumers closed; and its webhook deliveries.
 */
export interface NotifierMetrics {
  registry: Registry;
  /** An HTTP request or upgrade answered (the WebSocket gateway's `onAnswered`). */
  recordAnswered(route: string, status: number, seconds: number): void;
  webhooks: WebhookSeries;
}

export function notifierMetrics(
  connections: ConnectionRegistry,
  events: () => EventsConsumerFigures,
): NotifierMetrics {
  const registry = createServiceRegistry('notifier');
  const registers = [registry];
  registerEventsSeries(events, registers);
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
    webhooks: webhookSeries(registers),
  };
}

/** Attempt buckets: from a local receiver's milliseconds to the 10 s default timeout and over. */
const WEBHOOK_ATTEMPT_BUCKETS_S = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function webhookSeries(registers: Registry[]): WebhookSeries {
  const enqueued = new Counter({
    name: 'sts_notifier_webhook_deliveries_enqueued_total',
    help: 'Webhook deliveries owed: one per event and subscribed endpoint',
    registers,
  });
  const attempts = new Counter<'outcome'>({
    name: 'sts_notifier_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retry, failed)',
    labelNames: ['outcome'],
    registers,
  });
  const duration = new Histogram({
    name: 'sts_notifier_webhook_attempt_duration_seconds',
    help: 'Time of one webhook attempt: resolving, connecting, sending, reading the answer',
    buckets: WEBHOOK_ATTEMPT_BUCKETS_S,
    registers,
  });
  const sending = new Gauge({
    name: 'sts_notifier_webhook_deliveries_in_flight',
    help: 'Webhook deliveries being sent by this replica',
    registers,
  });
  const disabled = new Counter({
    name: 'sts_notifier_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled: answered 410 Gone, or failing for WEBHOOKS_DISABLE_AFTER_MS',
    registers,
  });
  return {
    enqueued: (count) => enqueued.inc(count),
    attempted: (outcome, seconds) => {
      attempts.inc({ outcome });
      duration.observe(seconds);
    },
    sending: (delta) => sending.inc(delta),
    disabled: () => disabled.inc(),
  };
}

/** The events consumer's position, its lag behind the stream and its restarts, read when scraped. */
function registerEventsSeries(events: () => EventsConsumerFigures, registers: Registry[]): void {
  new Gauge({
    name: 'sts_notifier_events_sequence',
    help: 'The last events-stream sequence handed to the sockets and webhooks',
    registers,
    collect() {
      this.set(events().delivered);
    },
  });
  new Gauge({
    name: 'sts_notifier_events_lag',
    help: 'Events the stream held beyond the last delivered one, at the last reading of the stream (every second)',
    registers,
    collect() {
      this.set(events().lag);
    },
  });
  new Counter<'reason'>({
    name: 'sts_notifier_events_consumer_restarts_total',
    help: 'Events consumer started afresh: silent (no event nor heartbeat for 5 s) or stalled (behind the stream, not moving, 5 s)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(events().restarts)) {
        this.inc({ reason }, count);
      }
    },
  });
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
