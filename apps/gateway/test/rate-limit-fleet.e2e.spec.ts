import type { NestFastifyApplication } from '@nestjs/platform-fastify';
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
   * The limit's count of requests, sent at once, alternating between the
   * replicas, on a new key, then one more on each replica. The window is a
   * fixed second opened by the first request, and a replica counts alone while
   * Redis is slower than 250 ms: a loaded machine may spread the run over two
   * windows or count part of it locally, which the answers show (their
   * remaining counts, sorted, are not each of LIMIT - 1 down to 0 once, or the
   * run outlasted the window). Such a run is sent again on a new key, at most
   * three times; a limiter that counts per replica splits every run and still
   * fails. (Sent one after the other, a slow hour's ten requests outlasted the
   * second in all three tries.)
   */
  async function runInOneWindow(): Promise<{
    answers: HttpResult[];
    refused: HttpResult;
    refusedOnFirst: HttpResult;
  }> {
    const remaining = (answer: HttpResult) => Number(answer.headers.get('x-ratelimit-remaining'));
    for (let attempt = 1; ; attempt += 1) {
      const user = await first.userWithKey('account:read');
      const startedAt = Date.now();
      const answers = (
        await Promise.all(
          Array.from({ length: LIMIT }, (_, request) =>
            wallets(request % 2 === 0 ? 'first' : 'second', user),
          ),
        )
      ).sort((a, b) => remaining(b) - remaining(a));
      const refused = await wallets('second', user);
      const refusedOnFirst = await wallets('first', user);
      const falling = answers.every((answer, index) => remaining(answer) === LIMIT - index - 1);
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

  /**
   * A request with an API key has its cached key served after a fence on the
   * change feed's connection; that fence leaves as the request arrives, so its
   * round trip runs beside the count. Redis here takes no answer: the count
   * gives up after 250 ms (and counts locally), so the fence must have started
   * well before the answer, by Postgres' own clock; sent after the count it
   * starts a few milliseconds before the answer.
   */
  it('sends the key’s change fence as the request arrives, beside the count', async () => {
    const user = await first.userWithKey('account:read');
    expect((await wallets('first', user)).status).toBe(200);
    redis.blackhole();
    try {
      expect((await wallets('first', user)).status).toBe(200);
      const [fence] = await first.query<{ before_answer_ms: number }>(
        `SELECT extract(epoch FROM clock_timestamp() - max(query_start)) * 1000 AS before_answer_ms
         FROM pg_stat_activity
         WHERE application_name = 'sts-gateway-changes' AND datname = current_database()`,
      );
      expect(Number(fence?.before_answer_ms)).toBeGreaterThan(150);
    } finally {
      redis.restore();
    }
  });

  it('counts per replica while Redis is away, with a log line and a metric, and shares again after', async () => {
    const user = await first.userWithKey('account:read');
    redis.cut();
    try {
      // At once, so all of them fall in the one-second window the first local count opens (one
      // after the other, a slow hour's requests outlived it and the last one opened another).
      const answers = await Promise.all(
        Array.from({ length: LIMIT + 1 }, () => wallets('first', user)),
      );
      const onFirst = answers.map((answer) => answer.status).sort((a, b) => a - b);
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
});
