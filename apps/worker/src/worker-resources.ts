import type { DataSource } from 'typeorm';
import { jetstream } from '@nats-io/jetstream';
import type { BudgetClient } from '@sts/budget-client';
import { allStreams } from '@sts/contracts';
import { creditNeedsKeptRate, type VenueId } from '@sts/domain';
import { createDataSource, jetStreamPublisher, OutboxRelay, runMigrations } from '@sts/persistence';
import { connectNats, ensureStreamsAtBoot, type Logger, type NatsConnection } from '@sts/platform';
import { CUMULATIVE_BUDGET_VENUES, FrameCoalescer } from '@sts/venues';
import { monotonicClock } from './clock';
import type { WorkerConfig } from './config/load-worker-config';
import type { WorkerMetrics } from './metrics/worker-metrics';
import { StepScheduler } from './trade-runner/step-scheduler';
import { AccountSessions } from './venue-sessions/account-sessions';
import type { CumulativePolicy } from './venue-sessions/cumulative-quota-watch';
import { deadManPolicy, watchDeadMen } from './venue-sessions/dead-man-wiring';
import { MarketData } from './venue-sessions/market-data';
import { VenueAnswerTimes } from './venue-sessions/venue-answer-times';
import { VenueClientFactory } from './venue-sessions/venue-client-factory';

/** What a started worker must close, in the reverse of the order it was opened. */
export type Closers = Array<() => Promise<unknown>>;

export interface Stores {
  db: DataSource;
  nats: NatsConnection;
  relay: OutboxRelay;
}

/**
 * Postgres (migrated), NATS with the deployment's streams, and the outbox
 * relay that publishes what the worker commits. Each is added to `closers`
 * as soon as it is open.
 */
export async function openStores(
  config: WorkerConfig,
  logger: Logger,
  closers: Closers,
): Promise<Stores> {
  const { settings, workerId } = config;
  const db: DataSource = createDataSource(settings.databaseUrl, `sts-worker-${workerId}`);
  await db.initialize();
  closers.push(() => db.destroy());
  await runMigrations(db);
  const nats: NatsConnection = await connectNats({
    url: settings.natsUrl,
    name: `worker-${workerId}`,
  });
  closers.push(() => nats.drain());
  await ensureStreamsAtBoot(nats, allStreams(settings.natsPrefix), settings.natsReplicas, {
    onRetry: (error) => logger.warn({ err: error }, 'JetStream not answering yet; retrying'),
  });

  const relay = new OutboxRelay(db, jetStreamPublisher(jetstream(nats)), {
    onError: (error) =>
      logger.warn({ err: error }, 'outbox relay failed; retrying on the next poll'),
  });
  relay.start();
  closers.push(async () => {
    await relay.stop();
    await relay.drain();
  });
  return { db, nats, relay };
}

/**
 * Accounts of live venues that keep a cumulative request budget are
 * followed through the budget service (WORKER_CUMULATIVE_POLL_MS, _READ_MS);
 * paper venues keep none.
 */
function cumulativePolicyOf(
  config: WorkerConfig,
  budget: BudgetClient | undefined,
): (venue: VenueId) => CumulativePolicy | undefined {
  if (!budget) {
    return () => undefined;
  }
  const policy: CumulativePolicy = {
    budget,
    pollMs: config.settings.cumulativePollMs,
    readEveryMs: config.settings.cumulativeReadMs,
  };
  return (venue) =>
    config.venues[venue].mode === 'live' && CUMULATIVE_BUDGET_VENUES.has(venue)
      ? policy
      : undefined;
}

export interface Venues {
  coalescer: FrameCoalescer;
  answerTimes: VenueAnswerTimes;
  accounts: AccountSessions;
  scheduler: StepScheduler;
  marketData: MarketData;
}

/**
 * The venues: one client factory (shared frame coalescer, counted requests),
 * the account sessions and the market data feeds, whose book updates run as
 * bursts of the step scheduler.
 */
export function openVenues(
  config: WorkerConfig,
  env: Record<string, string | undefined>,
  metrics: WorkerMetrics,
  logger: Logger,
  closers: Closers,
  nats: NatsConnection,
  budget?: BudgetClient,
): Venues {
  const coalescer = new FrameCoalescer();
  const answerTimes = new VenueAnswerTimes();
  metrics.watchAnswerTimes(answerTimes);
  const factory = new VenueClientFactory(
    config.venues,
    config.egressPlan,
    { ...env, VENUE_SIM_URL: config.settings.venueSimUrl },
    logger,
    coalescer,
    metrics,
    answerTimes,
  );
  const accounts = new AccountSessions(
    factory,
    logger,
    deadManPolicy(config, nats, metrics, logger, closers),
    cumulativePolicyOf(config, budget),
    config.settings.orderBatchMs,
    (venue) => creditNeedsKeptRate(config.venues[venue], 'fills'),
  );
  watchDeadMen(metrics, accounts);
  closers.push(() => accounts.closeAll());
  const scheduler = new StepScheduler(monotonicClock, coalescer);
  const marketData = new MarketData(factory, config.workerId, logger, (deliver) =>
    scheduler.burst(deliver),
  );
  closers.push(() => marketData.closeAll());
  return { coalescer, answerTimes, accounts, scheduler, marketData };
}
