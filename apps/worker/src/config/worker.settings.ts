import { Expose } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { UNBOUNDED_REQUEST_SETTLE_MS } from '@sts/domain';
import { BooleanSetting, CommonSettings, type CredentialsSettings } from '@sts/platform';

/** Every worker setting; apps/worker/README.md (Settings) documents each with its default. */
export class WorkerSettings extends CommonSettings {
  /**
   * This replica's identity: written as lease_owner and as worker_id on every
   * log entry. Must be unique among live workers; the default
   * (hostname-pid-random) is.
   */
  @Expose({ name: 'WORKER_ID' })
  @IsOptional()
  @IsString()
  workerId?: string;

  /**
   * How long a trade's lease lasts without renewal. A worker that dies
   * (kill -9) loses its trades to another worker this long after its last
   * renewal; lower is faster recovery, higher tolerates longer pauses.
   */
  @Expose({ name: 'WORKER_LEASE_TTL_MS' })
  @IsInt()
  @Min(500)
  @Max(120_000)
  leaseTtlMs: number = 5_000;

  /** How often held leases are renewed (one statement for all of them). Default: a third of the TTL. */
  @Expose({ name: 'WORKER_LEASE_RENEW_MS' })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60_000)
  leaseRenewMs?: number;

  /** How often Postgres is scanned for trades nobody holds (dead worker, hand-over, lost start). */
  @Expose({ name: 'WORKER_TAKEOVER_SCAN_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  takeoverScanMs: number = 1_000;

  /**
   * Port of the worker's `/metrics`, `/livez` and `/readyz` listener. The
   * default 0 takes any free port (logged as `metrics_url`), so replicas on
   * one host never collide; deployments set it (`npm start` 9463 and up, the
   * manifests 9463).
   */
  @Expose({ name: 'WORKER_METRICS_PORT' })
  @IsInt()
  @Min(0)
  @Max(65_535)
  metricsPort: number = 0;

  /** The most live trades this worker runs; past it, start commands are left to other workers. */
  @Expose({ name: 'WORKER_MAX_TRADES' })
  @IsInt()
  @Min(1)
  @Max(100_000)
  maxTrades: number = 2_000;

  /** How often maintenance rows and the kill switch are read, in case a NATS message was missed. */
  @Expose({ name: 'WORKER_MAINTENANCE_POLL_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  maintenancePollMs: number = 2_000;

  /**
   * How long a committed fill may wait before it is published to the
   * `fills` subscription: fills committed in the window share one outbox
   * relay run, so a busy worker spends one claim per burst, not per fill,
   * beside its hedges. 0 publishes each at once. Lifecycle events always go
   * at once.
   */
  @Expose({ name: 'WORKER_FILL_PUSH_MS' })
  @IsInt()
  @Min(0)
  @Max(1_000)
  fillPushMs: number = 50;

  /**
   * How long a dead worker's order request may still land on a venue whose
   * requests carry no expiry this client can set (Extended, Lighter): a
   * worker that takes over its trades waits this long after the lease
   * expired before it trusts the venue's open orders and fills there
   * (venues that bound a request wait that bound instead). Lower it only
   * where nothing between the workers and the venue can hold a request that
   * long: the specs, whose venues are local processes and whose killed
   * workers' sockets close with them, use seconds.
   */
  @Expose({ name: 'WORKER_UNBOUNDED_REQUEST_WAIT_MS' })
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  unboundedRequestWaitMs: number = UNBOUNDED_REQUEST_SETTLE_MS;

  /**
   * Where a maker venue bounds no request this client can set, how long
   * after a dead worker's lease expired the trade's new owner keeps
   * cancelling that worker's maker orders if they land (recovery completes
   * after `WORKER_UNBOUNDED_REQUEST_WAIT_MS`; this watch goes on behind it).
   * The default is Lighter's: ccxt signs every Lighter transaction to expire
   * 10 minutes after signing (docs/live-venues.md, "Bounded exposure").
   */
  @Expose({ name: 'WORKER_LATE_ORDER_WATCH_MS' })
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  lateOrderWatchMs: number = 600_000;

  /** Graceful shutdown: how long trades may take to go quiet (no order, no hedge) before hand-over. */
  @Expose({ name: 'WORKER_SHUTDOWN_GRACE_MS' })
  @IsInt()
  @Min(0)
  @Max(120_000)
  shutdownGraceMs: number = 10_000;

  /**
   * The timeout every venue account's dead-man switch is armed with while
   * this worker's trades hold the account (re-armed every third of it): the
   * venue cancels the account's orders at most this long after the last
   * worker holding trades there stopped. Clamped up to the venue's minimum
   * (Hyperliquid: 5 s), with a warning.
   */
  @Expose({ name: 'WORKER_DEAD_MAN_TIMEOUT_MS' })
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  deadManTimeoutMs: number = 15_000;

  /**
   * How often this worker reports, for each account it holds on a venue
   * with a cumulative request budget (Hyperliquid's address budget,
   * Lighter's volume quota), the order requests it sent there, and gets the
   * account's budget back from the budget service: a trade's view of what
   * the fleet may have spent unreported is the account's limit times this.
   */
  @Expose({ name: 'WORKER_CUMULATIVE_POLL_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  cumulativePollMs: number = 1_000;

  /**
   * How often the venue is asked what is left of such a budget near its
   * end (far from it, as seldom as a quarter of what is left at the
   * account's full rate allows, up to 10 minutes): a Hyperliquid
   * `userRateLimit` read (weight 20 of the per-IP 1,200 a minute, paid from
   * a trade's budget); Lighter's word comes free with its transactions'
   * answers. The spends in between are counted and reported.
   */
  @Expose({ name: 'WORKER_CUMULATIVE_READ_MS' })
  @IsInt()
  @Min(500)
  @Max(600_000)
  cumulativeReadMs: number = 30_000;

  /**
   * How long an account's post-only placement or cancel waits for others of
   * the same account to go with it in one batched request, where the venue
   * takes batches and the client sends them (Hyperliquid: an order or cancel
   * action of up to 39 orders weighs what one order does; Paradex's and
   * Aster's batch endpoints). A hedge's IOC never waits. -1 sends every
   * request on its own.
   */
  @Expose({ name: 'WORKER_ORDER_BATCH_MS' })
  @IsInt()
  @Min(-1)
  @Max(50)
  orderBatchMs: number = 3;

  /**
   * Whether a start command is first offered to the worker already running
   * trades on the trade's maker account (`trade.offer`), so one account
   * session carries them and their orders batch; false: the worker the
   * work queue hands it to runs it.
   */
  @BooleanSetting('WORKER_ACCOUNT_AFFINITY')
  @IsBoolean({ message: 'WORKER_ACCOUNT_AFFINITY must be true or false' })
  accountAffinity: boolean = true;

  /** Base URL of the venue simulator; a paper venue is `${VENUE_SIM_URL}/venues/<id>` unless its registry entry has an endpoint. */
  @Expose({ name: 'VENUE_SIM_URL' })
  @IsString()
  venueSimUrl: string = 'http://127.0.0.1:7100';

  // Composed rather than inherited: this group is shared with other services.
  credentials: CredentialsSettings;
}
