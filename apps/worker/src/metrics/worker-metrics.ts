import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, FAST_LATENCY_BUCKETS_S } from '@sts/platform';
import type { LogEntry } from '../execution-log/log-entries';
import type { VenueRequestCount } from '../venue-sessions/counted-venue-client';
import { LatencyRecorder } from './latency-recorder';

/** A trade as the metrics see it: bounded labels only (venue, market, status), never its id. */
export interface TradeExposure {
  status: string;
  market: string;
  hedgeExchange: string;
  /** Maker fills not confirmed hedged, in the trade's base size (0 before its legs open). */
  unhedgedSize: number;
}

/** What the gauges read at scrape time; nothing on the hedge path writes them. */
export interface WorkerMetricsSource {
  trades(): TradeExposure[];
  maxTrades: number;
  draining(): boolean;
}

interface VenueCounts {
  exchange: string;
  operation: string;
  requests: number;
  rateLimited: number;
}

export type LeaseAcquisition = 'fresh' | 'handover' | 'takeover';

const STATUSES = ['validating', 'active', 'paused', 'recovering'] as const;

/**
 * The worker's figures: the in-memory latency rings the benches read, and
 * the Prometheus series served on the worker's `/metrics`. Every observation
 * on the hedge path is a counter increment or a histogram observation (no
 * I/O, no await); gauges of what the worker holds are computed when scraped.
 */
export class WorkerMetrics {
  readonly registry: Registry;
  /** From a maker fill reaching the trade to its hedge IOC handed to the socket. */
  readonly fillToHedge = new LatencyRecorder();
  /**
   * From the arrival of a book update that moved H or the maker touch to the
   * re-quote request handed to the socket, for re-quotes the budget let out at once.
   */
  readonly moveToRequote = new LatencyRecorder();
  /** Re-quotes that first waited for the trade's request budget (not counted above). */
  requotesHeldByBudget = 0;

  private source: WorkerMetricsSource = { trades: () => [], maxTrades: 0, draining: () => false };
  /** Every (hedge venue, market) seen, so a gauge goes back to 0 rather than vanishing. */
  private readonly exposureKeys = new Set<string>();

  private readonly makerFills: Counter<'exchange' | 'market'>;
  private readonly hedgesSent: Counter<'exchange' | 'market'>;
  private readonly hedgeRetries: Counter<'exchange' | 'market'>;
  private readonly hedgesFilled: Counter<'exchange' | 'market'>;
  private readonly hedgeTimeouts: Counter<'exchange' | 'market'>;
  private readonly hedgeOutcomes: Counter<'exchange' | 'result'>;
  private readonly hedgeFailures: Counter<'exchange'>;
  private readonly fillToHedgeSent: Histogram<'exchange'>;
  private readonly fillToHedgeFilled: Histogram<'exchange'>;
  private readonly requoteLatency: Histogram;
  private readonly requotesHeld: Counter;
  /** Venue requests and 429s per (venue, operation): plain numbers on the quote path, series when scraped. */
  private readonly venueCounts = new Map<string, VenueCounts>();
  private readonly leaseAcquisitions: Counter<'kind'>;
  private readonly recoveries: Counter;
  private readonly guardTriggers: Counter<'action'>;

  constructor() {
    this.registry = createServiceRegistry('worker');
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Histogram<L>({ name, help, labelNames, buckets: FAST_LATENCY_BUCKETS_S, registers });

    this.makerFills = counter('sts_worker_maker_fills_total', 'Maker fills received', [
      'exchange',
      'market',
    ]);
    this.hedgesSent = counter(
      'sts_worker_hedges_sent_total',
      'Hedge IOC orders sent (every attempt)',
      ['exchange', 'market'],
    );
    this.hedgeRetries = counter(
      'sts_worker_hedge_retries_total',
      'Hedge attempts after the first (a remainder sent again)',
      ['exchange', 'market'],
    );
    this.hedgesFilled = counter('sts_worker_hedges_filled_total', 'Hedge fills received', [
      'exchange',
      'market',
    ]);
    this.hedgeTimeouts = counter(
      'sts_worker_hedge_timeouts_total',
      'Hedges that did not fill within hedge_timeout_ms',
      ['exchange', 'market'],
    );
    this.hedgeOutcomes = counter('sts_worker_hedge_outcomes_total', 'Hedges ended, by result', [
      'exchange',
      'result',
    ]);
    this.hedgeFailures = counter(
      'sts_worker_hedge_failures_total',
      'Hedges that failed their trade (timed out or refused)',
      ['exchange'],
    );
    this.fillToHedgeSent = histogram(
      'sts_worker_fill_to_hedge_sent_seconds',
      'From a maker fill reaching the worker to its hedge order handed to the socket',
      ['exchange'],
    );
    this.fillToHedgeFilled = histogram(
      'sts_worker_maker_fill_to_hedge_filled_seconds',
      'From a maker fill reaching the worker to its hedge filled in full',
      ['exchange'],
    );
    this.requoteLatency = histogram(
      'sts_worker_requote_latency_seconds',
      'From a book move to the re-quote request handed to the socket (not held by budget)',
      [],
    );
    this.requotesHeld = counter(
      'sts_worker_requotes_held_by_budget_total',
      "Re-quotes that first waited for the trade's request budget",
      [],
    );
    const venueCounts = this.venueCounts;
    const venueTotal = (name: string, help: string, read: (counts: VenueCounts) => number) =>
      new Counter<'exchange' | 'operation'>({
        name,
        help,
        labelNames: ['exchange', 'operation'],
        registers,
        collect() {
          this.reset();
          for (const counts of venueCounts.values()) {
            this.inc({ exchange: counts.exchange, operation: counts.operation }, read(counts));
          }
        },
      });
    venueTotal('sts_worker_venue_requests_total', 'Requests made to venues', (c) => c.requests);
    venueTotal(
      'sts_worker_venue_rate_limited_total',
      'Venue requests refused as rate limited (HTTP 429)',
      (c) => c.rateLimited,
    );
    this.leaseAcquisitions = counter(
      'sts_worker_lease_acquisitions_total',
      "Trade leases acquired, by how: fresh, handover (a peer released it), takeover (a dead peer's)",
      ['kind'],
    );
    this.recoveries = counter(
      'sts_worker_recoveries_total',
      'Trades recovered against the venues (recovery_completed)',
      [],
    );
    this.guardTriggers = counter(
      'sts_worker_fast_move_guard_triggers_total',
      'Fast-move guard triggers',
      ['action'],
    );

    const source = (): WorkerMetricsSource => this.source;
    // One look at the trades per scrape, shared by the gauges that read them.
    let held: TradeExposure[] | undefined;
    const trades = (): TradeExposure[] => {
      if (!held) {
        held = this.source.trades();
        setImmediate(() => (held = undefined));
      }
      return held;
    };
    const exposureKeys = this.exposureKeys;
    new Gauge({
      name: 'sts_worker_live_trades',
      help: 'Live trades this worker holds',
      registers,
      collect() {
        this.set(trades().length);
      },
    });
    new Gauge({
      name: 'sts_worker_max_trades',
      help: 'The most live trades this worker takes (WORKER_MAX_TRADES)',
      registers,
      collect() {
        this.set(source().maxTrades);
      },
    });
    new Gauge({
      name: 'sts_worker_draining',
      help: '1 while the worker hands its trades over and takes no new ones',
      registers,
      collect() {
        this.set(source().draining() ? 1 : 0);
      },
    });
    new Gauge<'status'>({
      name: 'sts_worker_trades',
      help: 'Trades held by this worker, by status',
      labelNames: ['status'],
      registers,
      collect() {
        const counts = new Map<string, number>(STATUSES.map((status) => [status, 0]));
        for (const trade of trades()) {
          counts.set(trade.status, (counts.get(trade.status) ?? 0) + 1);
        }
        for (const [status, count] of counts) {
          this.set({ status }, count);
        }
      },
    });
    new Gauge<'exchange' | 'market'>({
      name: 'sts_worker_unhedged_size',
      help: 'Maker fills not yet confirmed hedged, per hedge venue and market (0 at rest)',
      labelNames: ['exchange', 'market'],
      registers,
      collect() {
        const sums = new Map<string, number>([...exposureKeys].map((key) => [key, 0]));
        for (const trade of trades()) {
          const key = `${trade.hedgeExchange}\u0000${trade.market}`;
          exposureKeys.add(key);
          sums.set(key, (sums.get(key) ?? 0) + trade.unhedgedSize);
        }
        for (const [key, size] of sums) {
          const [exchange, market] = key.split('\u0000');
          this.set({ exchange, market }, size);
        }
      },
    });
  }

  /** Connects the scrape-time gauges to the worker's fleet. */
  attach(source: WorkerMetricsSource): void {
    this.source = source;
  }

  /** After the hedge is out: one ring write and one histogram observation. */
  recordFillToHedgeSent(exchange: string, ms: number): void {
    this.fillToHedge.record(ms);
    this.fillToHedgeSent.observe({ exchange }, ms / 1000);
  }

  recordRequote(ms: number): void {
    this.moveToRequote.record(ms);
    this.requoteLatency.observe(ms / 1000);
  }

  recordRequoteHeld(): void {
    this.requotesHeldByBudget += 1;
    this.requotesHeld.inc();
  }

  /** A hedge series ended: `ms` since the maker fill that started it. */
  recordHedgeEnded(exchange: string, result: string, ms: number): void {
    this.hedgeOutcomes.inc({ exchange, result });
    if (result === 'filled') {
      this.fillToHedgeFilled.observe({ exchange }, ms / 1000);
    }
    if (result === 'timeout' || result === 'rejected') {
      this.hedgeFailures.inc({ exchange });
    }
  }

  /** Counts what a trade wrote to its execution log (the log is the record of every event). */
  recordEntries(entries: LogEntry[], market: string): void {
    for (const entry of entries) {
      const exchange = String(entry.data['exchange'] ?? '');
      switch (entry.eventType) {
        case 'maker_fill':
          this.makerFills.inc({ exchange, market });
          break;
        case 'hedge_sent':
          this.hedgesSent.inc({ exchange, market });
          if (Number(entry.data['attempt'] ?? 1) > 1) {
            this.hedgeRetries.inc({ exchange, market });
          }
          break;
        case 'hedge_filled':
          this.hedgesFilled.inc({ exchange, market });
          break;
        case 'hedge_timeout':
          this.hedgeTimeouts.inc({ exchange, market });
          break;
        case 'recovery_completed':
          this.recoveries.inc();
          break;
        case 'fast_move_guard':
          this.guardTriggers.inc({ action: String(entry.data['action'] ?? '') });
          break;
        case 'hedge_outcome':
        case 'chunk_started':
        case 'chunk_completed':
          break;
      }
    }
  }

  /** A venue client's counts of one operation: a number increment per request (the quote path calls it often). */
  venueRequestCount(exchange: string, operation: string): VenueRequestCount {
    const key = `${exchange}\u0000${operation}`;
    let counts = this.venueCounts.get(key);
    if (!counts) {
      counts = { exchange, operation, requests: 0, rateLimited: 0 };
      this.venueCounts.set(key, counts);
    }
    const held = counts;
    return {
      request: () => {
        held.requests += 1;
      },
      rateLimited: () => {
        held.rateLimited += 1;
      },
    };
  }

  recordLeaseAcquired(kind: LeaseAcquisition): void {
    this.leaseAcquisitions.inc({ kind });
  }
}
