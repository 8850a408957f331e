import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  allTradeLifecycleSubjects,
  decodeEnvelope,
  parseTradeLifecycle,
  TRADE_LIFECYCLE,
  type TradeLifecycle,
} from '@sts/contracts';
import { retryingUnavailable } from '@sts/testing';
import { PaperVenueClient, toVenueOrder, type VenueOrder } from '@sts/venues';
// The gateway's e2e harness (real gateway, venue simulator, budget service, operator tool).
import { GatewayHarness, type SimDeposit } from '@sts/app-gateway-testing';
import { startWorker, type RunningWorker } from '../src/bootstrap';
import { eventually, explainTimeoutsWith } from './eventually';
import { recentProblems } from './worker-logs';

export { eventually };
import { VenueSimControl } from './venue-sim-control';
import { removeWorkerScratch, WorkerProcess } from './worker-process';

export interface VenueCredential {
  apiKey: string;
  apiSecret: string;
  wallet: string;
}

export interface Trader {
  userId: string;
  wallet: string;
  headers: Record<string, string>;
  credentials: Record<string, VenueCredential>;
}

export interface TradeView {
  trade_id: string;
  status: string;
  filled_size: string;
  target_size: string;
  failure_reason: string;
  [field: string]: unknown;
}

export interface TradeEventView {
  sequence: number;
  event_type: string;
  data: Record<string, any>;
  worker_id: string;
  created_at: string;
}

/** Venue symbols of the markets the specs trade. */
export const SYMBOLS: Record<string, Record<string, string>> = {
  BTC: {
    hyperliquid: 'BTC',
    paradex: 'BTC-USD-PERP',
    lighter: 'BTC',
    aster: 'BTCUSDT',
    extended: 'BTC-USD',
  },
  ETH: {
    hyperliquid: 'ETH',
    paradex: 'ETH-USD-PERP',
    lighter: 'ETH',
    aster: 'ETHUSDT',
    extended: 'ETH-USD',
  },
};

/**
 * Longest wait for the first resting orders of a worker process just started
 * on live venues: its first trades open the venues' sessions (markets, signed
 * reads) first, which took more than waitForRestingOrder's default 10 s on a
 * slow CI hour. Opening a Hyperliquid account reads 40 weight of the egress's
 * limit (userAbstraction, userRateLimit), paid from the opening trade's share
 * before its first quote: some 20 s at 2 a second, and a clean-clone CI run
 * beside it waited more than 30 s.
 */
export const NEW_WORKER_FIRST_ORDER_MS = 45_000;

/**
 * What a just-started worker may take to open its venues and act on a
 * takeover (a scan, the sessions, the recovery's reads and hedges, all on
 * credit): its first quotes wait out the opening reads, its takeover does not.
 */
const NEW_WORKER_TAKEOVER_MS = 30_000;

/**
 * A takeover's bound, from the kill: `withinMs`, or, when the new worker
 * process itself took long to start (a loaded machine), as long after its
 * start as a just-started worker may take to act (`NEW_WORKER_TAKEOVER_MS`): the dead lease and the killed worker's
 * requests have lapsed by then or lapse within it, and what is left is a scan,
 * the venues' sessions opened (markets, signed reads) and the recovery's reads.
 * Slow-hour clean-clone CIs took 13.6 s and 25.1 s after starts 15.7 s and
 * 7.2 s after the kill. Either still fails a takeover that waits the
 * unbounded-request fallback (a minute, after the lease).
 */
export const takeoverBoundMs = (withinMs: number, startedAfterKillMs: number): number =>
  Math.max(withinMs, startedAfterKillMs + NEW_WORKER_TAKEOVER_MS);

/**
 * For the worker that takes over from one a spec killed: the killed
 * process's order requests cannot land later (its sockets closed with it,
 * and the simulator holds a request only where a spec tells it to), so the
 * wait for requests to venues that bound none (Extended, Lighter) need not
 * be the production minute.
 */
export const KILLED_WORKERS_REQUESTS_GONE = { WORKER_UNBOUNDED_REQUEST_WAIT_MS: '5000' };

/**
 * The lease the harness's workers hold by default. A trade whose lease went
 * unrenewed for 65 % of the TTL stops quoting and takes its maker order down
 * (apps/worker/README.md, "A lease it cannot prove"): on a 2 s lease a
 * renewal held ~1.3 s by a loaded machine did that in a CI run
 * (amend-cancel.e2e: "lease unproven: quoting stopped"), and a spec waiting
 * for an order to rest or be amended failed although nothing was wrong.
 * Here doubt takes 19.5 s without a renewal. Renewed as often as on the
 * short lease: a renewal also brings an amendment or a cancel whose control
 * message was missed. A dead worker's trades pass only after 30 s: specs
 * that measure takeovers or lapses hold `SHORT_LEASE` (or a lease of their
 * own).
 */
export const LONG_LEASE = { WORKER_LEASE_TTL_MS: '30000', WORKER_LEASE_RENEW_MS: '666' };

/**
 * For specs that measure takeovers: a kill -9'd worker's trades pass 2 s
 * after its last renewal, renewed every third of that (the worker's default).
 * Exposed to a loaded machine's held renewals as above.
 */
export const SHORT_LEASE = { WORKER_LEASE_TTL_MS: '2000', WORKER_LEASE_RENEW_MS: '666' };

/**
 * `base` with `overrides` over it. A TTL set without a renew interval gets
 * the worker's default interval (a third of that TTL), not the one `base`
 * chose for its own TTL.
 */
function overriding(
  base: Record<string, string>,
  overrides: Record<string, string>,
): Record<string, string> {
  const env = { ...base, ...overrides };
  if ('WORKER_LEASE_TTL_MS' in overrides && !('WORKER_LEASE_RENEW_MS' in overrides)) {
    delete env['WORKER_LEASE_RENEW_MS'];
  }
  return env;
}

/**
 * The worker's end-to-end harness: the gateway harness (gateway, in-process
 * venue simulator in manual time, budget service) plus in-process workers on
 * the same database and NATS prefix. Specs drive trades through the public
 * HTTP API, move the market through the simulator's control endpoint and
 * read the truth from the venues.
 */
export class WorkerHarness {
  readonly gateway = new GatewayHarness();
  readonly logDir = mkdtempSync(join(tmpdir(), 'sts-worker-'));
  sim!: VenueSimControl;
  readonly workers: RunningWorker[] = [];
  readonly processes: WorkerProcess[] = [];
  /** Lifecycle events seen on NATS, per trade, in arrival order. */
  readonly lifecycle = new Map<string, TradeLifecycle[]>();
  private nats?: NatsConnection;
  private readonly clients = new Map<string, PaperVenueClient>();
  private workerEnv: Record<string, string> = {};

  async start(
    options: { env?: Record<string, string>; workers?: number; liveDialects?: string[] } = {},
  ): Promise<this> {
    await this.gateway.start({
      venues: true,
      budget: true,
      env: options.env,
      liveDialects: options.liveDialects,
    });
    this.sim = new VenueSimControl(this.gateway.venueSim!.url);
    explainTimeoutsWith(() => recentProblems(this.logDir));
    this.workerEnv = overriding(
      {
        ...this.gateway.env,
        ...LONG_LEASE,
        WORKER_TAKEOVER_SCAN_MS: '250',
        WORKER_MAINTENANCE_POLL_MS: '500',
        WORKER_SHUTDOWN_GRACE_MS: '3000',
        // Each replica of a spec listens for metrics on a port of its own.
        WORKER_METRICS_PORT: '0',
      },
      options.env ?? {},
    );
    this.nats = await connect({ servers: '127.0.0.1:4222' });
    this.nats.subscribe(allTradeLifecycleSubjects(this.gateway.env['NATS_PREFIX']), {
      callback: (error, message) => {
        if (error) {
          return;
        }
        const event = decodeEnvelope(message.data, TRADE_LIFECYCLE, parseTradeLifecycle).payload;
        const seen = this.lifecycle.get(event.trade_id) ?? [];
        seen.push(event);
        this.lifecycle.set(event.trade_id, seen);
      },
    });
    for (let i = 0; i < (options.workers ?? 1); i += 1) {
      await this.addWorker();
    }
    return this;
  }

  async addWorker(env: Record<string, string> = {}): Promise<RunningWorker> {
    const id = `w${this.workers.length + 1}-${randomBytes(2).toString('hex')}`;
    const worker = await startWorker(
      overriding(this.workerEnv, {
        WORKER_ID: id,
        LOG_FILE: join(this.logDir, `${id}.log`),
        LOG_LEVEL: 'debug',
        ...env,
      }),
    );
    this.workers.push(worker);
    return worker;
  }

  /** A worker replica in its own process (built from the current sources). */
  async spawnWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const id = `p${this.processes.length + 1}-${randomBytes(2).toString('hex')}`;
    const worker = new WorkerProcess(
      id,
      join(this.logDir, `${id}.log`),
      overriding(this.workerEnv, { LOG_LEVEL: 'debug', ...env }),
    );
    this.processes.push(worker);
    return worker.start();
  }

  /**
   * Every replica the spec started, gone: a spec that fails half-way leaves
   * none behind to take the next spec's trades.
   */
  async stopWorkers(): Promise<void> {
    for (const worker of this.processes) {
      await worker.kill().catch(() => undefined);
    }
    for (const worker of this.workers.splice(0)) {
      await worker.close().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    explainTimeoutsWith(undefined);
    await this.stopWorkers();
    this.processes.splice(0);
    removeWorkerScratch();
    for (const client of this.clients.values()) {
      await client.close();
    }
    await this.nats?.drain();
    await this.gateway.stop();
  }

  /** A user with an API key and paper credentials (known to the spec) on the given venues. */
  async trader(venues: string[] = ['hyperliquid', 'paradex']): Promise<Trader> {
    const trader = await this.gateway.trader(venues);
    return {
      userId: trader.userId,
      wallet: trader.wallet,
      headers: trader.headers,
      credentials: trader.credentials,
    };
  }

  /**
   * A user whose wallet signs for itself on live-mode venues (private key
   * known to the spec), funded on each venue through the simulator's
   * deposits (`deposits` per venue where given, else 1,000,000 of its margin).
   */
  async liveTrader(
    venues: string[],
    deposits?: Readonly<Record<string, readonly SimDeposit[]>>,
  ): Promise<Trader> {
    const trader = await this.gateway.liveTrader(venues, undefined, deposits);
    return {
      userId: trader.userId,
      wallet: trader.wallet,
      headers: trader.headers,
      credentials: trader.credentials,
    };
  }

  /**
   * `waitForRestingOrder` for the first orders of a worker process just
   * started: its first trades open the venues' sessions first
   * (`NEW_WORKER_FIRST_ORDER_MS`).
   */
  waitForNewWorkersOrder(trader: Trader, venue: string): Promise<VenueOrder> {
    return this.waitForRestingOrder(trader, venue, undefined, NEW_WORKER_FIRST_ORDER_MS);
  }

  /**
   * The trader's resting order on a venue as the venue itself recorded it
   * (the simulator's read-out, whichever protocol placed it).
   */
  async waitForRestingOrder(
    trader: Trader,
    venue: string,
    accept: (order: VenueOrder) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<VenueOrder> {
    return this.waitForOrder(
      async () => {
        const { orders } = await this.sim.accountOrders(venue, trader.wallet, { status: 'open' });
        // `market` is the venue symbol here: these specs need the venue's own fields.
        return orders.map((order) => toVenueOrder(venue, order.symbol, order));
      },
      `a resting order of the trader on ${venue} (venue records)`,
      accept,
      timeoutMs,
    );
  }

  /** Creates a trade (202); a 503 is retried with the same idempotency key (`retryingUnavailable`). */
  async createTrade(trader: Trader, overrides: Record<string, unknown> = {}): Promise<string> {
    const body = this.gateway.tradeBody(trader.wallet, overrides);
    const response = await retryingUnavailable(
      () => this.gateway.request('POST', '/api/v1/trades', { headers: trader.headers, body }),
      (unavailable) => unavailable.headers.get('retry-after'),
    );
    if (response.status !== 202) {
      throw new Error(`create answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
    return response.body.trade_id;
  }

  async trade(trader: Trader, tradeId: string): Promise<TradeView> {
    const response = await this.gateway.request('GET', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    if (response.status !== 200) {
      throw new Error(`GET trade answered ${response.status}`);
    }
    return response.body;
  }

  /** Cancels through the API (202) and waits for the trade to reach `canceled`. */
  async cancelTrade(trader: Trader, tradeId: string): Promise<void> {
    const response = await this.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    expect(response.status).toBe(202);
    await this.waitForStatus(trader, tradeId, 'canceled');
  }

  async waitForStatus(
    trader: Trader,
    tradeId: string,
    status: string,
    timeoutMs = 10_000,
  ): Promise<TradeView> {
    let last: TradeView | undefined;
    return eventually(
      async () => {
        last = await this.trade(trader, tradeId);
        return last.status === status ? last : undefined;
      },
      `trade ${tradeId} to be ${status}`,
      {
        timeoutMs,
        last: () => last && { status: last.status, failure_reason: last.failure_reason },
      },
    );
  }

  async events(trader: Trader, tradeId: string): Promise<TradeEventView[]> {
    const response = await this.gateway.request('GET', `/api/v1/trades/${tradeId}/events`, {
      headers: trader.headers,
    });
    return response.body.events;
  }

  /**
   * The trade's last event other than a markout: the marks of its last maker
   * fills are logged up to a minute after it ends.
   */
  closingEvent(events: TradeEventView[]): TradeEventView {
    const closing = events.filter((event) => event.event_type !== 'markout');
    return closing[closing.length - 1];
  }

  async waitForEvent(
    trader: Trader,
    tradeId: string,
    eventType: string,
    count = 1,
    timeoutMs = 10_000,
  ): Promise<TradeEventView[]> {
    let last: TradeEventView[] = [];
    return eventually(
      async () => {
        last = await this.events(trader, tradeId);
        return last.filter((event) => event.event_type === eventType).length >= count
          ? last
          : undefined;
      },
      `${count} ${eventType} entries in trade ${tradeId}'s log`,
      { timeoutMs, last: () => last.map((event) => event.event_type) },
    );
  }

  lifecycleOf(tradeId: string): string[] {
    return (this.lifecycle.get(tradeId) ?? []).map((event) => event.event);
  }

  async waitForLifecycle(
    tradeId: string,
    event: string,
    count = 1,
    timeoutMs = 10_000,
  ): Promise<TradeLifecycle[]> {
    return eventually(
      () => {
        const seen = this.lifecycle.get(tradeId) ?? [];
        return seen.filter((entry) => entry.event === event).length >= count ? seen : undefined;
      },
      `${count} ${event} for trade ${tradeId} on NATS`,
      { timeoutMs, last: () => this.lifecycleOf(tradeId) },
    );
  }

  /** The trader's open orders on a venue, read over the venue protocol with the trader's keys. */
  async openOrders(trader: Trader, venue: string): Promise<VenueOrder[]> {
    return (await this.venueClient(trader, venue)).openOrders();
  }

  async waitForMakerOrder(
    trader: Trader,
    venue: string,
    accept: (order: VenueOrder) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<VenueOrder> {
    return this.waitForOrder(
      () => this.openOrders(trader, venue),
      `a resting maker order on ${venue}`,
      accept,
      timeoutMs,
    );
  }

  private async waitForOrder(
    read: () => Promise<VenueOrder[]>,
    what: string,
    accept: (order: VenueOrder) => boolean,
    timeoutMs: number,
  ): Promise<VenueOrder> {
    let last: VenueOrder[] = [];
    return eventually(
      async () => {
        last = await read();
        return last.find(accept);
      },
      what,
      { timeoutMs, intervalMs: 100, last: () => last.map((o) => `${o.side} ${o.size}@${o.price}`) },
    );
  }

  async waitForNoOpenOrders(trader: Trader, venue: string, timeoutMs = 10_000): Promise<void> {
    let last: VenueOrder[] = [];
    await eventually(
      async () => {
        last = await this.openOrders(trader, venue);
        return last.length === 0;
      },
      `no open order of the trader on ${venue}`,
      { timeoutMs, intervalMs: 100, last: () => last.map((o) => `${o.side} ${o.size}@${o.price}`) },
    );
  }

  /**
   * Makes an outside taker trade `size` of a resting maker order, that order
   * alone (the simulator's fill of one order): the rest of the book stays as
   * it was, so the order is never left alone at its price by the take (which
   * would make its trade step down to the others' touch, MarketView).
   */
  async takeFromMaker(order: VenueOrder, size: string): Promise<void> {
    await this.sim.fillOrder(order.exchange, order.symbol, order.orderId, size);
  }

  /**
   * `takeFromMaker` on the trader's maker order resting on `venue` when the
   * take lands. Between a read and its take a worker may replace its order
   * (a re-quote, or a lease it could not prove on a loaded machine takes the
   * order down): a take the venue answers `unknown_order` reads the resting
   * order again and takes from that one. Returns the order taken from.
   */
  async takeFromRestingMaker(
    trader: Trader,
    venue: string,
    size: string,
    timeoutMs = NEW_WORKER_FIRST_ORDER_MS,
  ): Promise<VenueOrder> {
    let gone: string[] = [];
    return eventually(
      async () => {
        const order = await this.waitForRestingOrder(trader, venue, undefined, timeoutMs);
        try {
          await this.takeFromMaker(order, size);
          return order;
        } catch (error) {
          if (!/unknown_order/.test(String(error))) throw error;
          gone = [...gone, order.orderId];
          console.log(
            `maker order ${order.orderId} on ${venue} gone before the take; reading again`,
          );
          return undefined;
        }
      },
      `a take from the trader's resting maker order on ${venue}`,
      { timeoutMs, intervalMs: 50, last: () => gone },
    );
  }

  private async venueClient(trader: Trader, venue: string): Promise<PaperVenueClient> {
    const key = `${trader.userId}:${venue}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new PaperVenueClient({
        venue,
        baseUrl: `${this.gateway.venueSim!.url}/venues/${venue}`,
        credentials: trader.credentials[venue],
      });
      this.clients.set(key, client);
      await client.connect();
    }
    return client;
  }
}
