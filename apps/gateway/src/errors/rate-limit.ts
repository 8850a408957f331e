import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { apiKeyPrefix } from '@sts/auth';
import { AppError, connectRedis, type Logger, type Redis } from '@sts/platform';
import { HEALTH_PATHS } from '../health/health.controller';
import type { ErrorBody } from './app-error.filter';
import {
  FleetRateLimitStore,
  type Counted,
  type FleetCountWatcher,
} from './fleet-rate-limit-store';

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

/** Methods that change nothing: counted while they run, and refused at their answer. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Callers whose count passed the limit, each until its window ends: refused from
 * memory, with no count and no work. Windows that ended are dropped as new
 * refusals arrive, so it holds at most one window's refused callers.
 */
class RefusedCallers {
  private readonly endsAt = new Map<string, number>();
  private sweptAt = 0;

  constructor(private readonly windowMs: number) {}

  refuse(caller: string, endsAt: number): void {
    this.endsAt.set(caller, endsAt);
  }

  /** Milliseconds left of the caller's refused window, 0 when it is not refused. */
  leftFor(caller: string, now: number): number {
    if (now - this.sweptAt >= this.windowMs) {
      this.sweptAt = now;
      for (const [held, endsAt] of this.endsAt) {
        if (endsAt <= now) {
          this.endsAt.delete(held);
        }
      }
    }
    const endsAt = this.endsAt.get(caller);
    return endsAt === undefined ? 0 : Math.max(0, endsAt - now);
  }
}

/** A read's count, started as the read arrived, judged at its answer. */
const PENDING_COUNT = Symbol('rate limit count');
type CountedRead = FastifyRequest & {
  [PENDING_COUNT]?: { caller: string; count: Promise<Counted> };
};

const isStream = (payload: unknown): payload is Readable =>
  typeof (payload as Readable | null)?.pipe === 'function';

/**
 * The API's request limit per caller (decisions section 4: 429 `rate_limited`
 * with Retry-After), with `x-ratelimit-*` on every answer it counts.
 *
 * A write waits for its count and is refused before it runs. A read is counted
 * while it runs: the fleet's count is a round trip to Redis, and a read that
 * waited for it would answer that much later; a read past the limit is refused
 * at its answer instead, its result dropped. Either way a caller refused once
 * is refused from memory for the rest of its window, so a flood past the limit
 * costs at most the reads already under way when the first refusal came.
 */
class FleetRateLimit {
  private readonly refused: RefusedCallers;

  constructor(
    private readonly store: FleetRateLimitStore,
    private readonly max: number,
    windowMs: number,
  ) {
    this.refused = new RefusedCallers(windowMs);
  }

  onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (HEALTH_PATHS.has(request.url)) {
      done();
      return;
    }
    const caller = callerOf(request);
    const refusedForMs = this.refused.leftFor(caller, Date.now());
    if (refusedForMs > 0) {
      done(this.refusal(reply, refusedForMs));
      return;
    }
    const count = this.store.count(caller);
    if (READS.has(request.method)) {
      (request as CountedRead)[PENDING_COUNT] = { caller, count };
      done();
      return;
    }
    void count.then((counted) => done(this.judge(caller, reply, counted)));
  }

  onSend(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ): void {
    const pending = (request as CountedRead)[PENDING_COUNT];
    if (!pending) {
      done(null, payload);
      return;
    }
    void pending.count.then((counted) => {
      const refusal = this.judge(pending.caller, reply, counted);
      if (!refusal) {
        done(null, payload);
        return;
      }
      if (isStream(payload)) {
        payload.destroy();
      }
      void reply.code(429).header('content-type', 'application/json; charset=utf-8');
      done(
        null,
        JSON.stringify({ error: refusal.message, code: 'rate_limited' } satisfies ErrorBody),
      );
    });
  }

  /** Sets the answer's limit headers; past the limit, remembers the caller and gives its refusal. */
  private judge(caller: string, reply: FastifyReply, counted: Counted): AppError | undefined {
    if (counted.current > this.max) {
      this.refused.refuse(caller, Date.now() + counted.ttl);
      return this.refusal(reply, counted.ttl);
    }
    void reply
      .header('x-ratelimit-limit', this.max)
      .header('x-ratelimit-remaining', this.max - counted.current)
      .header('x-ratelimit-reset', Math.ceil(counted.ttl / 1000));
    return undefined;
  }

  private refusal(reply: FastifyReply, leftMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(leftMs / 1000));
    void reply
      .header('x-ratelimit-limit', this.max)
      .header('x-ratelimit-remaining', 0)
      .header('x-ratelimit-reset', seconds)
      .header('retry-after', seconds);
    return new AppError(
      'rate_limited',
      `rate limit exceeded: ${this.max} requests per second; retry in ${seconds} s`,
    );
  }
}

/**
 * Registers the limit on every route but the health checks. The count is per
 * fleet (in Redis, fleet-rate-limit-store.ts), per replica while Redis is away.
 */
export async function registerRateLimit(
  app: NestFastifyApplication,
  wiring: RateLimitWiring,
): Promise<void> {
  // Every request counts here: their counts of one turn of the event loop share one write.
  const redis = connectRedis(wiring.redisUrl, wiring.redisPrefix, { autoPipelining: true });
  // Failures surface per request, as the store falls back; the client's own events would repeat them.
  redis.on('error', () => undefined);
  await connectedOrNot(redis);
  const store = new FleetRateLimitStore(
    redis,
    'ratelimit:',
    WINDOW_MS,
    watchFleetCount(wiring.logger, wiring.registry),
  );
  const limit = new FleetRateLimit(store, wiring.perSecond, WINDOW_MS);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest(PENDING_COUNT, null);
  fastify.addHook('onRequest', (request, reply, done) => limit.onRequest(request, reply, done));
  fastify.addHook('onSend', (request, reply, payload, done) =>
    limit.onSend(request, reply, payload, done),
  );
  fastify.addHook('onClose', async () => redis.disconnect());
}
