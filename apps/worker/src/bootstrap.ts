import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { BudgetClient } from '@sts/budget-client';
import { allStreams } from '@sts/contracts';
import { FrameCoalescer } from '@sts/venues';
import {
  createDataSource,
  CredentialStore,
  jetStreamPublisher,
  OutboxRelay,
  runMigrations,
} from '@sts/persistence';
import {
  checkEdgeDependencies,
  connectNats,
  createLogger,
  CredentialCipher,
  ensureStreams,
  type Logger,
  NatsLink,
  type NatsConnection,
  type Readiness,
} from '@sts/platform';
import { monotonicClock } from './clock';
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
import { StepScheduler } from './trade-runner/step-scheduler';
import { TradeReader } from './trades/trade-record';
import { AccountSessions } from './venue-sessions/account-sessions';
import { MarketData } from './venue-sessions/market-data';
import { VenueClientFactory } from './venue-sessions/venue-client-factory';

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
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch(() => undefined);
    }
  };
  try {
    const db: DataSource = createDataSource(settings.databaseUrl, `sts-worker-${workerId}`);
    await db.initialize();
    closers.push(() => db.destroy());
    await runMigrations(db);
    const nats: NatsConnection = await connectNats({
      url: settings.natsUrl,
      name: `worker-${workerId}`,
    });
    closers.push(() => nats.drain());
    const natsLink = new NatsLink(nats);
    await ensureStreams(await nats.jetstreamManager(), allStreams(settings.natsPrefix));

    const relay = new OutboxRelay(db, jetStreamPublisher(nats.jetstream()), {
      onError: (error) =>
        logger.warn({ err: error }, 'outbox relay failed; retrying on the next poll'),
    });
    relay.start();
    closers.push(async () => {
      await relay.stop();
      await relay.drain();
    });

    const cipher = CredentialCipher.fromSettings(
      settings.credentials.credentialsKekId,
      settings.credentials.credentialsKek,
      settings.credentials.credentialsOldKeks,
    );
    const budget = new BudgetClient(nats, { natsPrefix: settings.natsPrefix, logger });
    closers.push(async () => budget.close());
    const coalescer = new FrameCoalescer();
    const metrics = options.metrics ?? new WorkerMetrics();
    const factory = new VenueClientFactory(
      config.venues,
      { ...env, VENUE_SIM_URL: settings.venueSimUrl },
      logger,
      coalescer,
      metrics,
    );
    const accounts = new AccountSessions(factory, logger);
    closers.push(() => accounts.closeAll());
    const scheduler = new StepScheduler(monotonicClock, coalescer);
    const marketData = new MarketData(factory, workerId, logger, (deliver) =>
      scheduler.burst(deliver),
    );
    closers.push(() => marketData.closeAll());
    const leases = new LeaseRepository(db, workerId, settings.leaseTtlMs);

    // The watch starts before the fleet exists (trades read the switches as they start).
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
      db,
      reader: new TradeReader(db),
      leases,
      credentials: new CredentialStore(db, cipher),
      accounts,
      marketData,
      budget,
      clock: monotonicClock,
      scheduler,
      coalescer,
      metrics,
      logger,
      haltFor: (venues) => maintenance.haltFor(venues),
      kickOutbox: () => void relay.kick(),
    };
    const control = new TradeControlListener(nats, settings.natsPrefix, workerId, logger);
    const trades = new TradeFleet(services, leases, control, settings.maxTrades, logger);
    fleetRef.current = trades;
    let draining = false;
    metrics.attach({
      trades: () => trades.list().flatMap((runner) => runner.exposure() ?? []),
      maxTrades: settings.maxTrades,
      draining: () => draining,
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
    const commands = new StartCommandsConsumer(nats, settings.natsPrefix, trades, logger);
    await commands.start();
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
    logger.info(
      {
        nats_prefix: settings.natsPrefix,
        max_trades: settings.maxTrades,
        lease_ttl_ms: settings.leaseTtlMs,
        ...(options.metricsUrl ? { metrics_url: options.metricsUrl } : {}),
      },
      'worker started',
    );

    let closing: Promise<void> | undefined;
    return {
      workerId,
      metrics,
      tradeCount: () => trades.size,
      readiness: async () => {
        const checks = {
          worker: draining ? 'draining' : 'up',
          ...(await checkEdgeDependencies(db, natsLink)).checks,
        };
        return { ready: Object.values(checks).every((state) => state === 'up'), checks };
      },
      close: () =>
        (closing ??= (async () => {
          draining = true;
          clearInterval(stats);
          scanner.stop();
          await commands.stop();
          keeper.stop();
          const handedOver = (await trades.handOverAll(settings.shutdownGraceMs)).filter(
            (runner) => runner.released,
          );
          for (const runner of handedOver) {
            await commands
              .announceHandover(runner.tradeId, runner.userId, runner.lease.epoch)
              .catch(() => undefined);
          }
          await closeAll();
          logger.info({ handed_over: handedOver.length }, 'worker stopped');
        })()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
