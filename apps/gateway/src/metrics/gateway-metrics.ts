import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { StoreFigures } from '@sts/persistence';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';

const NO_FIGURES: StoreFigures = {
  outboxPending: 0,
  outboxLagSeconds: 0,
  liveTrades: 0,
  unleasedTrades: 0,
  killSwitchOnSeconds: 0,
};

/**
 * The gateway's series: requests by route pattern (never the raw URL, which
 * carries trade ids), method and status, with their latency; and, read from
 * Postgres at scrape time, the outbox relay's lag and live trades no worker holds.
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
  private readonly createGroups = new Histogram({
    name: 'sts_gateway_create_group_size',
    help: 'Creates admitted and inserted in one transaction (a group), observed as each group starts',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [this.registry],
  });
  private readFigures: () => Promise<StoreFigures> = async () => NO_FIGURES;

  constructor() {
    let last: StoreFigures = NO_FIGURES;
    // One read per scrape, shared by the store gauges (the first collected reads).
    let reading: Promise<StoreFigures> | undefined;
    const figures = async (): Promise<StoreFigures> => {
      reading ??= this.readFigures()
        // A scrape while Postgres is down shows the last figures, never an error.
        .catch(() => last)
        .then((read) => (last = read))
        .finally(() => setImmediate(() => (reading = undefined)));
      return reading;
    };
    const gauge = (name: string, help: string, pick: (read: StoreFigures) => number): void => {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.set(pick(await figures()));
        },
      });
    };
    gauge(
      'sts_outbox_pending',
      'Outbox rows committed and not yet published to NATS',
      (read) => read.outboxPending,
    );
    gauge(
      'sts_outbox_lag_seconds',
      'Age of the oldest outbox row not yet published (0 when none)',
      (read) => read.outboxLagSeconds,
    );
    gauge('sts_trades_live', 'Trades in a live status, all users', (read) => read.liveTrades);
    gauge(
      'sts_trades_unleased',
      'Live trades whose lease no worker holds (never taken, or expired)',
      (read) => read.unleasedTrades,
    );
    gauge(
      'sts_kill_switch_on_seconds',
      'How long the kill switch has been on (0 while it is off)',
      (read) => read.killSwitchOnSeconds,
    );
  }

  /** Where the store figures are read from (the gateway's Postgres). */
  readStoreFiguresWith(read: () => Promise<StoreFigures>): void {
    this.readFigures = read;
  }

  /** Counts the creates of every group as it starts, and those waiting for one. */
  observeCreateGroups(groups: {
    readonly waiting: number;
    onGroup(listener: (size: number) => void): void;
  }): void {
    groups.onGroup((size) => this.createGroups.observe(size));
    new Gauge({
      name: 'sts_gateway_creates_waiting',
      help: 'Creates waiting for a group to start (every group in flight is running)',
      registers: [this.registry],
      collect() {
        this.set(groups.waiting);
      },
    });
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
