import 'reflect-metadata';
import { BudgetClient } from '@sts/budget-client';
import { CredentialStore } from '@sts/persistence';
import {
  checkEdgeDependencies,
  createLogger,
  CredentialCipher,
  type Logger,
  NatsLink,
  type NatsConnection,
  type Readiness,
} from '@sts/platform';
import { monotonicClock } from './clock';
import { AccountAffinity } from './commands/account-affinity';
import { StartCommandsConsumer } from './commands/start-commands.consumer';
import { TakeoverScanner } from './commands/takeover-scanner';
import { TradeControlListener } from './commands/trade-control.listener';
import { loadWorkerConfig, type WorkerConfig } from './config/load-worker-config';
import { TradeFleet } from './fleet/trade-fleet';
import { LeaseKeeper } from './lease/lease-keeper';
import { LeaseRepository } from './lease/lease.repository';
import { MaintenanceWatch } from './maintenance/maintenance-watch';
import { WorkerMetrics } from './metrics/worker-metrics';
import type { RunnerServices } from './trade-runner/runner-services';
import { TradeReader } from './trades/trade-record';
import { type Closers, openStores, openVenues, type Stores, type Venues } from './worker-resources';

export interface RunningWorker {
  workerId: string;
  metrics: WorkerMetrics;
  /** Trades held right now. */
  tradeCount(): number;
  /** Ready to take trades: not draining, Postgres and NATS answering (the `/readyz` probe). */
  readiness(): Promise<Readiness>;
  /** Graceful shutdown: takes no more trades, hands its trades over, closes every connection. */
  close(): Promise<void>;
}

export interface StartWorkerOptions {
  logger?: Logger;
  /** The figures to record into (main.ts serves them before the worker is up). */
  metrics?: WorkerMetrics;
  /** Where main.ts serves them (logged at start). */
  metricsUrl?: string;
}

const STATS_INTERVAL_MS = 30_000;

/**
 * Starts one worker replica: Postgres (trades, log, leases, outbox), NATS
 * (start commands, control requests, maintenance, budget) and the venues.
 * Any number of replicas run side by side; each trade runs on exactly one.
 */
export async function startWorker(
  env: Record<string, string | undefined> = process.env,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const config: WorkerConfig = loadWorkerConfig(env);
  const { settings, workerId } = config;
  const logger = (
    options.logger ?? createLogger('worker', settings.logLevel, settings.logFile)
  ).child({
    worker_id: workerId,
  });
  const closers: Closers = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch(() => undefined);
    }
  };
  try {
    const stores = await openStores(config, logger, closers);
    const { db, nats } = stores;
    const cipher = CredentialCipher.fromSettings(
      settings.credentials.credentialsKekId,
      settings.credentials.credentialsKek,
      settings.credentials.credentialsOldKeks,
    );
    const budget = new BudgetClient(nats, { natsPrefix: settings.natsPrefix, logger });
    closers.push(async () => budget.close());
    const metrics = options.metrics ?? new WorkerMetrics();
    const venues = openVenues(config, env, metrics, logger, closers, nats, budget);
    const leases = new LeaseRepository(db, workerId, settings.leaseTtlMs);

    const trades = await createTradeFleet(
      config,
      { stores, venues, budget, cipher, leases, metrics, logger },
      closers,
    );
    const fleet = await runFleet(config, { nats, leases, trades, metrics, logger }, closers);
    logger.info(
      {
        nats_prefix: settings.natsPrefix,
        max_trades: settings.maxTrades,
        lease_ttl_ms: settings.leaseTtlMs,
        ...(options.metricsUrl ? { metrics_url: options.metricsUrl } : {}),
      },
      'worker started',
    );
    return running(config, stores, fleet, closeAll, logger);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * The trades this worker runs and what every runner is given; the
 * maintenance watch starts first (trades read the switches as they start).
 */
async function createTradeFleet(
  config: WorkerConfig,
  parts: {
    stores: Stores;
    venues: Venues;
    budget: BudgetClient;
    cipher: CredentialCipher;
    leases: LeaseRepository;
    metrics: WorkerMetrics;
    logger: Logger;
  },
  closers: Closers,
): Promise<TradeFleet> {
  const { settings, workerId } = config;
  const { stores, venues, budget, cipher, leases, metrics, logger } = parts;
  const { db, nats, relay } = stores;
  const fleetRef: { current?: TradeFleet } = {};
  const maintenance = new MaintenanceWatch(
    db,
    nats,
    settings.natsPrefix,
    settings.maintenancePollMs,
    () => fleetRef.current?.onMaintenanceChanged(),
    logger,
  );
  await maintenance.start();
  closers.push(async () => maintenance.stop());

  const services: RunnerServices = {
    workerId,
    natsPrefix: settings.natsPrefix,
    venues: config.venues,
    leaseTtlMs: settings.leaseTtlMs,
    unboundedRequestWaitMs: settings.unboundedRequestWaitMs,
    lateOrderWatchMs: settings.lateOrderWatchMs,
    db,
    reader: new TradeReader(db),
    leases,
    credentials: new CredentialStore(db, cipher),
    accounts: venues.accounts,
    marketData: venues.marketData,
    budget,
    clock: monotonicClock,
    scheduler: venues.scheduler,
    coalescer: venues.coalescer,
    answerTimes: venues.answerTimes,
    metrics,
    logger,
    haltFor: (haltedVenues) => maintenance.haltFor(haltedVenues),
    kickOutbox: (written) =>
      written === 'fills' && settings.fillPushMs > 0
        ? relay.kickWithin(settings.fillPushMs)
        : void relay.kick(),
  };
  const control = new TradeControlListener(nats, settings.natsPrefix, workerId, logger);
  const trades = new TradeFleet(services, leases, control, settings.maxTrades, logger);
  fleetRef.current = trades;
  return trades;
}

/** The fleet at work: lease renewals, start commands, the takeover scan, periodic stats. */
interface Fleet {
  trades: TradeFleet;
  metrics: WorkerMetrics;
  keeper: LeaseKeeper;
  scanner: TakeoverScanner;
  commands: StartCommandsConsumer;
  stats: NodeJS.Timeout;
  draining: { value: boolean };
}

/** What the running fleet is built from. */
interface FleetParts {
  nats: NatsConnection;
  leases: LeaseRepository;
  trades: TradeFleet;
  metrics: WorkerMetrics;
  logger: Logger;
}

async function runFleet(config: WorkerConfig, parts: FleetParts, closers: Closers): Promise<Fleet> {
  const { settings } = config;
  const { leases, trades, metrics, logger } = parts;
  const draining = { value: false };
  metrics.attach({
    trades: () => trades.list().flatMap((runner) => runner.exposure() ?? []),
    maxTrades: settings.maxTrades,
    draining: () => draining.value,
  });
  const keeper = new LeaseKeeper(
    leases,
    () => trades.list(),
    monotonicClock,
    settings.leaseTtlMs,
    config.leaseRenewMs,
    logger,
  );
  keeper.start();
  closers.push(async () => keeper.stop());
  const scanner = new TakeoverScanner(leases, trades, settings.takeoverScanMs, logger);
  const commands = await startCommands(config, parts);
  scanner.start();
  void scanner.scan();

  const stats = setInterval(() => {
    logger.info(
      {
        trades: trades.size,
        fill_to_hedge_ms: metrics.fillToHedge.summary(),
        move_to_requote_ms: metrics.moveToRequote.summary(),
      },
      'worker stats',
    );
  }, STATS_INTERVAL_MS);
  stats.unref();
  return { trades, metrics, keeper, scanner, commands, stats, draining };
}

/** The work queue's start commands, each offered beside its maker account's trades first (unless off). */
async function startCommands(
  config: WorkerConfig,
  parts: FleetParts,
): Promise<StartCommandsConsumer> {
  const { settings, workerId } = config;
  const { nats, leases, trades, metrics, logger } = parts;
  const affinity = settings.accountAffinity
    ? new AccountAffinity(nats, settings.natsPrefix, workerId, leases, trades, metrics, logger)
    : undefined;
  const commands = new StartCommandsConsumer(nats, settings.natsPrefix, trades, logger, affinity);
  await commands.start();
  return commands;
}

/** The handle of a started worker; close() drains and hands every trade over, once. */
function running(
  config: WorkerConfig,
  stores: Stores,
  fleet: Fleet,
  closeAll: () => Promise<void>,
  logger: Logger,
): RunningWorker {
  const { trades, keeper, scanner, commands, draining } = fleet;
  const natsLink = new NatsLink(stores.nats);
  let closing: Promise<void> | undefined;
  return {
    workerId: config.workerId,
    metrics: fleet.metrics,
    tradeCount: () => trades.size,
    readiness: async () => {
      const checks = {
        worker: draining.value ? 'draining' : 'up',
        ...(await checkEdgeDependencies(stores.db, natsLink)).checks,
      };
      return { ready: Object.values(checks).every((state) => state === 'up'), checks };
    },
    close: () =>
      (closing ??= (async () => {
        draining.value = true;
        clearInterval(fleet.stats);
        scanner.stop();
        await commands.stop();
        // Leases are renewed while the trades go quiet: a hand-over that takes longer than
        // the lease's trust (a slow cancel, a hedge in flight) must not lapse into a takeover.
        const handedOver = (await trades.handOverAll(config.settings.shutdownGraceMs)).filter(
          (runner) => runner.awaitsSuccessor,
        );
        keeper.stop();
        for (const runner of handedOver) {
          await commands
            .announceHandover(runner.tradeId, runner.userId, runner.lease.epoch)
            .catch(() => undefined);
        }
        await closeAll();
        logger.info({ handed_over: handedOver.length }, 'worker stopped');
      })()),
  };
}
