import { createHash } from 'node:crypto';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { apiKeyPrefix } from '@sts/auth';
import { connectRedis, type Logger, type Redis } from '@sts/platform';
import { HEALTH_PATHS } from '../health/health.controller';
import { FleetRateLimitStore, type FleetCountWatcher } from './fleet-rate-limit-store';

/** The limit's window: `GATEWAY_RATE_LIMIT_PER_S` requests per caller per second. */
const WINDOW_MS = 1000;

export interface RateLimitWiring {
  perSecond: number;
  redisUrl: string;
  redisPrefix: string;
  logger: Logger;
  /** The gateway's metrics registry, where the fallback counter is served. */
  registry?: Registry;
}

/**
 * Who a request counts against: its API key (by lookup prefix), its bearer
 * token, or its IP. Counted before authentication, so a flood of bad keys is
 * throttled too; the prefix is not secret.
 */
function callerOf(request: FastifyRequest): string {
  const apiKey = request.headers['x-api-key'];
  const prefix = typeof apiKey === 'string' ? apiKeyPrefix(apiKey) : null;
  if (prefix) {
    return `key:${prefix}`;
  }
  const authorization = request.headers['authorization'];
  if (typeof authorization === 'string' && authorization.length > 0) {
    return `session:${createHash('sha256').update(authorization).digest('hex').slice(0, 24)}`;
  }
  return `ip:${request.ip}`;
}

/** A log line as the shared count is lost and regained, and a counter of requests counted alone. */
function watchFleetCount(logger: Logger, registry?: Registry): FleetCountWatcher {
  const local = new Counter({
    name: 'sts_gateway_rate_limit_local_total',
    help: 'Requests this replica counted alone because Redis, where the fleet counts, did not answer',
    registers: registry ? [registry] : [],
  });
  return {
    sharedLost: (error) =>
      logger.warn(
        { err: error.message },
        'rate limit: Redis does not answer; counting per replica until it does',
      ),
    sharedRegained: () => logger.info('rate limit: Redis answers again; counting per fleet'),
    countedLocally: () => local.inc(),
  };
}

/** How long boot waits for Redis: the first requests would otherwise count alone. */
const CONNECT_WAIT_MS = 2000;

/**
 * Resolves once Redis is ready, refuses a connection, or CONNECT_WAIT_MS has passed: a gateway
 * starts without Redis (counting alone) rather than not at all.
 */
async function connectedOrNot(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  let settle = (): void => undefined;
  await new Promise<void>((resolve) => {
    settle = resolve;
    timer = setTimeout(resolve, CONNECT_WAIT_MS);
    redis.once('ready', settle).once('error', settle);
  });
  clearTimeout(timer);
  redis.off('ready', settle).off('error', settle);
}

/**
 * 429 `rate_limited` with Retry-After (decisions section 4), and `x-ratelimit-*`
 * on every answer; health checks are never limited. The count is per fleet (in
 * Redis, fleet-rate-limit-store.ts), per replica while Redis is away.
 */
export async function registerRateLimit(
  app: NestFastifyApplication,
  wiring: RateLimitWiring,
): Promise<void> {
  // The store sends each turn's counts in one pipeline of its own (docs/perf/gateway.md).
  const redis = connectRedis(wiring.redisUrl, wiring.redisPrefix);
  // Failures surface per request, as the store falls back; the client's own events would repeat them.
  redis.on('error', () => undefined);
  await connectedOrNot(redis);
  const store = new FleetRateLimitStore(
    redis,
    'ratelimit:',
    WINDOW_MS,
    watchFleetCount(wiring.logger, wiring.registry),
  );
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onClose', async () => redis.disconnect());
  await app.register(rateLimit, {
    global: true,
    max: wiring.perSecond,
    timeWindow: WINDOW_MS,
    keyGenerator: callerOf,
    allowList: (request) => HEALTH_PATHS.has(request.url),
    // The plugin constructs its store; this one is built above, with its Redis and watcher.
    store: function sharedStore() {
      return store;
    } as unknown as FastifyRateLimitStoreCtor,
    // Thrown into Nest's error filter, which maps status 429 to code rate_limited.
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `rate limit exceeded: ${context.max} requests per second; retry in ${context.after}`,
    }),
  });
}
