import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { apiKeyPrefix } from '@sts/auth';
import { connectRedis, sleep } from '@sts/platform';
import { TcpProxy, type TestUser } from '@sts/testing';
import { createGatewayApp } from '../src/bootstrap';
import { loadGatewayConfig } from '../src/config/load-gateway-settings';
import { GatewayMetrics } from '../src/metrics/gateway-metrics';
import { GatewayHarness, openApiConformance, type HttpResult } from './gateway-harness';

const LIMIT = 10;

/**
 * Two gateway replicas of one fleet (one database, one Redis prefix) count a
 * caller's requests together: the limit holds for the fleet, not per replica.
 * Redis is reached through a proxy the spec cuts: then each replica counts
 * alone, still limiting, and says so in its log and its metrics.
 */
describe('the API rate limit, counted across gateway replicas', () => {
  const redis = new TcpProxy(6379);
  const first = new GatewayHarness();
  const secondMetrics = new GatewayMetrics();
  let second: NestFastifyApplication;
  let secondUrl = '';

  beforeAll(async () => {
    await redis.start();
    const throughProxy = (env: Record<string, string>) => ({
      ...env,
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    });
    await first.start({
      env: { GATEWAY_RATE_LIMIT_PER_S: String(LIMIT) },
      gatewayEnv: throughProxy,
    });
    second = await createGatewayApp(loadGatewayConfig(throughProxy(first.env)), secondMetrics);
    await second.listen(0, '127.0.0.1');
    secondUrl = (await second.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await second?.close();
    await first.stop();
    await redis.stop();
  });

  /** GET /api/v1/wallets on one replica or the other, checked against the OpenAPI document. */
  async function wallets(replica: 'first' | 'second', user: TestUser): Promise<HttpResult> {
    if (replica === 'first') {
      return first.request('GET', '/api/v1/wallets', { headers: { 'x-api-key': user.apiKey } });
    }
    const response = await fetch(`${secondUrl}/api/v1/wallets`, {
      headers: { 'x-api-key': user.apiKey },
    });
    const result = {
      status: response.status,
      body: await response.json(),
      headers: response.headers,
    };
    (await openApiConformance()).assert({ method: 'GET', url: '/api/v1/wallets', ...result });
    return result;
  }

  const limitHeaders = (result: HttpResult) => ({
    status: result.status,
    limit: result.headers.get('x-ratelimit-limit'),
    remaining: result.headers.get('x-ratelimit-remaining'),
  });

  /**
   * The limit's count of requests, alternating between the replicas, on a new
   * key, then one more on each replica. The window is a fixed second
   * opened by the first request, and a replica counts alone while Redis is
   * slower than 250 ms: a loaded machine may spread the run over two windows
   * or count part of it locally, which the answers show (their remaining count
   * does not fall by one each time, or the run outlasted the window). Such a
   * run is sent again on a new key, at most three times; a limiter that counts
   * per replica splits every run and still fails.
   */
  async function runInOneWindow(): Promise<{
    answers: HttpResult[];
    refused: HttpResult;
    refusedOnFirst: HttpResult;
  }> {
    for (let attempt = 1; ; attempt += 1) {
      const user = await first.userWithKey('account:read');
      const startedAt = Date.now();
      const answers: HttpResult[] = [];
      for (let request = 0; request < LIMIT; request += 1) {
        answers.push(await wallets(request % 2 === 0 ? 'first' : 'second', user));
      }
      const refused = await wallets('second', user);
      const refusedOnFirst = await wallets('first', user);
      const falling = answers.every(
        (answer, index) =>
          answer.headers.get('x-ratelimit-remaining') === String(LIMIT - index - 1),
      );
      if ((falling && Date.now() - startedAt < 900) || attempt === 3) {
        return { answers, refused, refusedOnFirst };
      }
    }
  }

  it('refuses the request past the limit across both replicas with 429 and the headers', async () => {
    const { answers, refused, refusedOnFirst } = await runInOneWindow();
    // Each replica saw only half the limit: counted per replica, none would be refused.
    expect(answers.map(limitHeaders)).toEqual(
      answers.map((_, index) => ({
        status: 200,
        limit: String(LIMIT),
        remaining: String(LIMIT - index - 1),
      })),
    );

    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/rate limit exceeded/),
      code: 'rate_limited',
    });
    expect(limitHeaders(refused)).toEqual({ status: 429, limit: String(LIMIT), remaining: '0' });
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(0);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refusedOnFirst.status).toBe(429);
  });

  it('counts per replica while Redis is away, with a log line and a metric, and shares again after', async () => {
    const user = await first.userWithKey('account:read');
    redis.cut();
    try {
      const onFirst: number[] = [];
      for (let request = 0; request <= LIMIT; request += 1) {
        onFirst.push((await wallets('first', user)).status);
      }
      // Still limited (by the first replica alone), and the second replica's count is its own.
      expect(onFirst).toEqual([...Array<number>(LIMIT).fill(200), 429]);
      expect((await wallets('second', user)).status).toBe(200);
      expect(first.logs()).toContain('rate limit: Redis does not answer; counting per replica');
      const counted = await first.metrics.registry
        .getSingleMetric('sts_gateway_rate_limit_local_total')
        ?.get();
      expect(counted?.values[0]?.value).toBeGreaterThanOrEqual(LIMIT + 1);
    } finally {
      redis.restore();
    }

    // Redis is tried again a second after a failure (and reconnects within 2 s): once both
    // replicas count there, a request on each falls in one window of one count.
    const again = await first.userWithKey('account:read');
    const remaining = (result: HttpResult) => Number(result.headers.get('x-ratelimit-remaining'));
    let shared = false;
    for (let attempt = 0; attempt < 10 && !shared; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const onSecond = remaining(await wallets('second', again));
      shared = remaining(await wallets('first', again)) === onSecond - 1;
    }
    expect(shared).toBe(true);
    expect(first.logs()).toContain('rate limit: Redis answers again; counting per fleet');
  });

  /** Requests the first replica has counted alone, as its metrics show. */
  async function countedAlone(): Promise<number> {
    const metric = first.metrics.registry.getSingleMetric('sts_gateway_rate_limit_local_total');
    return (await metric?.get())?.values[0]?.value ?? 0;
  }

  /** Waits until the first replica counts in Redis again (a request it no longer counts alone). */
  async function countingInRedis(user: TestUser): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const before = await countedAlone();
      await first.request('GET', '/api/v1/trades', { headers: { 'x-api-key': user.apiKey } });
      if ((await countedAlone()) === before) {
        return;
      }
      await sleep(200);
    }
    throw new Error('the replica does not count in Redis again');
  }

  /**
   * With Redis partitioned, the limiter waits 250 ms for its count before it
   * counts alone. The spec holds the trades table, sends a read and a write of
   * it, and looks at the database: the read must be waiting on the table
   * before the limiter gave up on Redis, the write not. A machine too slow to
   * show the read there within the 250 ms is tried again, at most three times;
   * a limiter that makes reads wait for their count never shows it.
   */
  it('runs a read beside its count and a write only after it', async () => {
    const user = await first.userWithKey('trades:read,trades:write');
    const headers = { 'x-api-key': user.apiKey };
    const locker = new Client({ connectionString: first.env['DATABASE_URL'] });
    const watcher = new Client({ connectionString: first.env['DATABASE_URL'] });
    await Promise.all([locker.connect(), watcher.connect()]);
    const waitingOnLocks = async (): Promise<number> =>
      (
        await watcher.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0].waiting;
    try {
      for (let attempt = 1; ; attempt += 1) {
        await countingInRedis(user);
        await locker.query('BEGIN; LOCK TABLE trades IN ACCESS EXCLUSIVE MODE');
        const aloneBefore = await countedAlone();
        redis.blackhole();
        const read = first.request('GET', '/api/v1/trades', { headers });
        const write = first.request('POST', '/api/v1/trades/cancel-all', { headers });
        let waiting = 0;
        while (waiting === 0) {
          waiting = await waitingOnLocks();
        }
        const givenUp = (await countedAlone()) - aloneBefore;
        await locker.query('ROLLBACK');
        redis.restore();
        expect((await read).status).toBe(200);
        expect((await write).status).toBe(200);
        if (givenUp === 0 || attempt === 3) {
          expect({ givenUp, waiting }).toEqual({ givenUp: 0, waiting: 1 });
          break;
        }
      }
    } finally {
      redis.restore();
      await Promise.all([locker.end(), watcher.end()]);
    }
  });

  it('refuses a caller past the limit from memory for the rest of its window, counting no more', async () => {
    const counts = connectRedis('redis://127.0.0.1:6379', first.env['REDIS_PREFIX']);
    try {
      for (let attempt = 1; ; attempt += 1) {
        const user = await first.userWithKey('account:read');
        const startedAt = Date.now();
        const statuses: number[] = [];
        for (let request = 0; request < LIMIT + 4; request += 1) {
          statuses.push((await wallets('first', user)).status);
        }
        const counted = Number(await counts.get(`ratelimit:key:${apiKeyPrefix(user.apiKey)}`));
        // A run that outlasted its window counted afresh in the next one: sent again on a new key.
        if (Date.now() - startedAt < 900 || attempt === 3) {
          expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429, 429]);
          expect(counted).toBe(LIMIT + 1);
          break;
        }
      }
    } finally {
      counts.disconnect();
    }
  });
});
