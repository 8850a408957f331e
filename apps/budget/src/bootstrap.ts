import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { VenueRegistry } from '@sts/domain';
import { createDataSource } from '@sts/persistence';
import {
  checkEdgeDependencies,
  connectNats,
  connectRedis,
  createLogger,
  loadVenueRegistry,
  NatsLink,
  type Logger,
  type NatsConnection,
  type Readiness,
  type Redis,
} from '@sts/platform';
import type { DataSource } from 'typeorm';
import { BudgetMetrics } from './budget.metrics';
import { BudgetModule } from './budget.module';
import type { BudgetSettings } from './config/budget.settings';

export interface BudgetService {
  /** Stops taking requests, finishes the ones in flight, then closes every connection. */
  close(): Promise<void>;
  /** NATS connected, Redis ready and Postgres answering (the `/readyz` probe). */
  readiness(): Promise<Readiness>;
}

export interface BudgetServiceOptions {
  /** Defaults to the registry loaded from the environment. */
  venues?: VenueRegistry;
  logger?: Logger;
  /** The figures to record into (main.ts serves them). */
  metrics?: BudgetMetrics;
}

const REDIS_READY_WAIT_MS = 5_000;

/** Resolves when the client is ready, or after `ms` (whichever comes first). */
async function redisReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') {
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    redis.once('ready', () => resolve());
  });
  clearTimeout(timer);
}

/** The service's Redis; ioredis retries forever and reports every attempt: one line per 10 s. */
function openRedis(settings: BudgetSettings, logger: Logger): Redis {
  const redis: Redis = connectRedis(settings.redisUrl, settings.redisPrefix);
  let lastRedisError = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastRedisError < 10_000) {
      return;
    }
    lastRedisError = Date.now();
    logger.warn({ err: error }, 'Redis unreachable; budget requests answer budget_unavailable');
  });
  return redis;
}

/** The handle of a started service: readiness names Redis, Postgres and NATS; close drains. */
function running(
  app: INestApplicationContext,
  connections: { redis: Redis; db: DataSource; nats: NatsConnection },
  closeAll: () => Promise<void>,
): BudgetService {
  const { redis, db } = connections;
  const natsLink = new NatsLink(connections.nats);
  let closing = false;
  return {
    close: async () => {
      closing = true;
      await app.close();
      await closeAll();
    },
    readiness: async () => {
      const checks = {
        budget: closing ? 'draining' : 'up',
        redis: redis.status === 'ready' ? 'up' : 'down',
        ...(await checkEdgeDependencies(db, natsLink)).checks,
      };
      return { ready: Object.values(checks).every((state) => state === 'up'), checks };
    },
  };
}

/**
 * Starts the budget service: it answers on NATS as soon as this resolves.
 * Needs NATS and Postgres to start; Redis may be down (requests then answer
 * `budget_unavailable` until it is back, and an empty Redis is rebuilt from
 * the live trades).
 */
export async function startBudgetService(
  settings: BudgetSettings,
  options: BudgetServiceOptions = {},
): Promise<BudgetService> {
  const logger = options.logger ?? createLogger('budget', settings.logLevel, settings.logFile);
  const venues = options.venues ?? loadVenueRegistry();
  const instance = settings.instanceId ?? `budget-${process.pid}`;
  const opened: Array<() => Promise<unknown>> = [];
  const closeAll = async (): Promise<void> => {
    for (const close of opened.reverse()) {
      await close().catch(() => undefined);
    }
  };
  try {
    const redis = openRedis(settings, logger);
    opened.push(() => redis.quit());
    const nats: NatsConnection = await connectNats({ url: settings.natsUrl, name: instance });
    opened.push(() => nats.drain());
    const db: DataSource = createDataSource(settings.databaseUrl, instance);
    await db.initialize();
    opened.push(() => db.destroy());

    const app = await NestFactory.createApplicationContext(
      BudgetModule.forRoot({
        settings,
        venues,
        logger,
        nats,
        redis,
        db,
        metrics: options.metrics ?? new BudgetMetrics(),
      }),
      { logger: false, abortOnError: false },
    );
    // The subscriptions are only sent so far: once the server has them, a request finds us.
    await nats.flush();
    // Requests are not queued while Redis connects (enableOfflineQueue off): one sent
    // before it is ready would be refused. Wait a bounded time; a Redis that is down
    // stays a 503 per request, not a service that will not start.
    await redisReady(redis, REDIS_READY_WAIT_MS);
    logger.info({ instance, nats_prefix: settings.natsPrefix }, 'budget service listening');
    return running(app, { redis, db, nats }, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}
