import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';

/** How far the outbox relay is behind: rows committed and not yet on NATS, and the oldest one's age. */
export interface OutboxBacklog {
  pending: number;
  oldestAgeSeconds: number;
}

/**
 * The gateway's series: requests by route pattern (never the raw URL, which
 * carries trade ids), method and status, with their latency; and the
 * transactional outbox's backlog, read at scrape time.
 */
export class GatewayMetrics {
  readonly registry: Registry = createServiceRegistry('gateway');
  private readonly requests = new Counter<'method' | 'route' | 'status'>({
    name: 'sts_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram<'method' | 'route'>({
    name: 'sts_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: REQUEST_LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  private backlog: () => Promise<OutboxBacklog> = async () => ({ pending: 0, oldestAgeSeconds: 0 });

  constructor() {
    const backlog = (): Promise<OutboxBacklog> => this.backlog();
    let last: OutboxBacklog = { pending: 0, oldestAgeSeconds: 0 };
    const read = async (): Promise<OutboxBacklog> => {
      // A scrape while Postgres is down shows the last figures, never an error.
      last = await backlog().catch(() => last);
      return last;
    };
    new Gauge({
      name: 'sts_outbox_pending',
      help: 'Outbox rows committed and not yet published to NATS',
      registers: [this.registry],
      async collect() {
        this.set((await read()).pending);
      },
    });
    new Gauge({
      name: 'sts_outbox_lag_seconds',
      help: 'Age of the oldest outbox row not yet published (0 when none)',
      registers: [this.registry],
      async collect() {
        this.set(last.oldestAgeSeconds);
      },
    });
  }

  /** Where the outbox backlog is read from (the gateway's Postgres). */
  readBacklogWith(read: () => Promise<OutboxBacklog>): void {
    this.backlog = read;
  }

  /** Times every request, probes included, by its route pattern. */
  register(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const method = request.method;
      this.requests.inc({ method, route, status: String(reply.statusCode) });
      this.duration.observe({ method, route }, reply.elapsedTime / 1000);
      done();
    });
  }
}
