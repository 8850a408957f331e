import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { EXECUTING_TRADE_STATUSES, tradeStatusList } from '@sts/domain';
import { FAST_LATENCY_BUCKETS_S } from '@sts/platform';

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

export interface VenueCounts {
  exchange: string;
  operation: string;
  requests: number;
  rateLimited: number;
}

/** The statuses a worker holds trades in (the domain's executing set), each with a series. */
const STATUSES = tradeStatusList(EXECUTING_TRADE_STATUSES);

const counter = <L extends string>(
  registers: Registry[],
  name: string,
  help: string,
  labelNames: L[],
) => new Counter<L>({ name, help, labelNames, registers });

const histogram = <L extends string>(
  registers: Registry[],
  name: string,
  help: string,
  labelNames: L[],
) => new Histogram<L>({ name, help, labelNames, buckets: FAST_LATENCY_BUCKETS_S, registers });

/** Maker fills and hedges, counted from the execution log; fill-to-hedge latencies. */
export function hedgeSeries(registers: Registry[]) {
  const byMarket = ['exchange', 'market'] as Array<'exchange' | 'market'>;
  return {
    makerFills: counter(
      registers,
      'sts_worker_maker_fills_total',
      'Maker fills received',
      byMarket,
    ),
    hedgesSent: counter(
      registers,
      'sts_worker_hedges_sent_total',
      'Hedge IOC orders sent (every attempt)',
      byMarket,
    ),
    hedgeRetries: counter(
      registers,
      'sts_worker_hedge_retries_total',
      'Hedge attempts after the first (a remainder sent again)',
      byMarket,
    ),
    hedgesFilled: counter(
      registers,
      'sts_worker_hedges_filled_total',
      'Hedge fills received',
      byMarket,
    ),
    hedgeTimeouts: counter(
      registers,
      'sts_worker_hedge_timeouts_total',
      'Hedges that did not fill within hedge_timeout_ms',
      byMarket,
    ),
    hedgeOutcomes: counter(
      registers,
      'sts_worker_hedge_outcomes_total',
      'Hedges ended, by result',
      ['exchange', 'result'],
    ),
    hedgeFailures: counter(
      registers,
      'sts_worker_hedge_failures_total',
      'Hedges that failed their trade (timed out or refused)',
      ['exchange'],
    ),
    fillToHedgeSent: histogram(
      registers,
      'sts_worker_fill_to_hedge_sent_seconds',
      'From a maker fill reaching the worker to its hedge order handed to the socket',
      ['exchange'],
    ),
    fillToHedgeFilled: histogram(
      registers,
      'sts_worker_maker_fill_to_hedge_filled_seconds',
      'From a maker fill reaching the worker to its hedge filled in full',
      ['exchange'],
    ),
  };
}

export type HedgeSeries = ReturnType<typeof hedgeSeries>;

/** Re-quote latency and the re-quotes the request budget held. */
export function requoteSeries(registers: Registry[]) {
  return {
    requoteLatency: histogram(
      registers,
      'sts_worker_requote_latency_seconds',
      'From a book move to the re-quote request handed to the socket (not held by budget)',
      [],
    ),
    requotesHeld: counter(
      registers,
      'sts_worker_requotes_held_by_budget_total',
      "Re-quotes that first waited for the trade's request budget",
      [],
    ),
  };
}

export type RequoteSeries = ReturnType<typeof requoteSeries>;

/** Venue requests and 429s per (venue, operation): plain numbers on the quote path, series when scraped. */
export function registerVenueTotals(
  registers: Registry[],
  venueCounts: ReadonlyMap<string, VenueCounts>,
): void {
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
}

/**
 * The budget tokens (the venue's weight) of every HTTP request the live
 * clients sent, by kind, and whether a trade's budget paid for it: what
 * `metered="false"` counts spends a venue's limit that no budget saw.
 */
export function venueRequestWeight(
  registers: Registry[],
): Counter<'exchange' | 'kind' | 'metered'> {
  return counter(
    registers,
    'sts_worker_venue_request_tokens_total',
    "Budget tokens (the venue's weight) of the HTTP requests live clients sent, by request kind; metered=false: paid by no trade's budget",
    ['exchange', 'kind', 'metered'],
  );
}

/** Leases taken, recoveries, fast-move guard triggers. */
export function tradeHandlingSeries(registers: Registry[]) {
  return {
    leaseAcquisitions: counter(
      registers,
      'sts_worker_lease_acquisitions_total',
      "Trade leases acquired, by how: fresh, handover (a peer released it), takeover (a dead peer's)",
      ['kind'],
    ),
    startOffers: counter(
      registers,
      'sts_worker_start_offers_total',
      "Start commands offered to the worker running the trade's maker account: taken there, or run here (no room or no answer there)",
      ['outcome'],
    ),
    recoveries: counter(
      registers,
      'sts_worker_recoveries_total',
      'Trades recovered against the venues (recovery_completed)',
      [],
    ),
    lateMakerOrders: counter(
      registers,
      'sts_worker_late_maker_orders_canceled_total',
      "A dead worker's maker orders that landed after a takeover and were cancelled by the trade's new owner",
      ['exchange'],
    ),
    leaseFences: counter(
      registers,
      'sts_worker_lease_fences_total',
      'Trades whose lease this worker could not prove in time: quoting stopped and the maker side taken down before the lease could pass',
      [],
    ),
    guardTriggers: counter(
      registers,
      'sts_worker_fast_move_guard_triggers_total',
      'Fast-move guard triggers',
      ['action'],
    ),
    residuals: counter(
      registers,
      'sts_worker_residuals_total',
      'Trades that ended with maker fills too small to hedge, by what became of them on the maker venue (unwind_outcome result)',
      ['exchange', 'result'],
    ),
  };
}

export type TradeHandlingSeries = ReturnType<typeof tradeHandlingSeries>;

/**
 * Gauges of what the worker holds, computed when scraped: one look at the
 * trades per scrape, shared by the gauges that read them. `exposureKeys`
 * keeps every (hedge venue, market) seen, so a gauge goes back to 0 rather
 * than vanishing.
 */
export function registerHeldTradeGauges(
  registers: Registry[],
  source: () => WorkerMetricsSource,
  exposureKeys: Set<string>,
): void {
  let held: TradeExposure[] | undefined;
  const trades = (): TradeExposure[] => {
    if (!held) {
      held = source().trades();
      setImmediate(() => (held = undefined));
    }
    return held;
  };
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge('sts_worker_live_trades', 'Live trades this worker holds', () => trades().length);
  gauge(
    'sts_worker_max_trades',
    'The most live trades this worker takes (WORKER_MAX_TRADES)',
    () => source().maxTrades,
  );
  gauge(
    'sts_worker_draining',
    '1 while the worker hands its trades over and takes no new ones',
    () => (source().draining() ? 1 : 0),
  );
  registerStatusGauge(registers, trades);
  registerExposureGauge(registers, trades, exposureKeys);
}

/** Trades held by status; every executing status has a series, 0 when none. */
function registerStatusGauge(registers: Registry[], trades: () => TradeExposure[]): void {
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
}

/** Unhedged size per (hedge venue, market): a key seen once stays, at 0 when flat. */
function registerExposureGauge(
  registers: Registry[],
  trades: () => TradeExposure[],
  exposureKeys: Set<string>,
): void {
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

/** Per venue that has answered: how long a hedge IOC may go unanswered before it is in doubt. */
export function registerHedgeDoubtGauge(
  registers: Registry[],
  bounds: () => Array<{ venue: string; expectedMs: number }>,
): void {
  new Gauge<'exchange'>({
    name: 'sts_worker_hedge_doubt_after_seconds',
    help: "How long a hedge IOC may go unanswered on the venue before the trade takes its maker order down (twice the venue's usual answer time, 0.25 to 1 s)",
    labelNames: ['exchange'],
    registers,
    collect() {
      for (const { venue, expectedMs } of bounds()) {
        this.set({ exchange: venue }, expectedMs / 1000);
      }
    },
  });
}
