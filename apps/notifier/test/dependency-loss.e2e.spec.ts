import { TcpProxy } from '@sts/testing';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';
import { sleep } from '@sts/platform';

/**
 * The notifier loses Postgres or NATS, reached through TcpProxies this spec
 * cuts and restores (the machine's shared servers are never touched): a
 * 503 / service_unavailable naming the dependency within seconds, liveness
 * up, readiness down naming it, and recovery with no restart.
 */
describe('dependency loss at the notifier', () => {
  const postgres = new TcpProxy(5432);
  const nats = new TcpProxy(4222);
  const jwks = new TcpProxy(0);
  const harness = new NotifierHarness();
  let notifier: RunningNotifier;
  let alice: TestUser;
  let httpBase: string;

  beforeAll(async () => {
    await Promise.all([postgres.start(), nats.start(), jwks.start()]);
    await harness.start();
    jwks.retarget(Number(new URL(harness.env.AUTH_JWKS_URL).port));
    notifier = await harness.addReplica({
      DATABASE_URL: postgres.rewrite(harness.env.DATABASE_URL),
      NATS_URL: `nats://127.0.0.1:${nats.port}`,
      AUTH_JWKS_URL: jwks.rewrite(harness.env.AUTH_JWKS_URL),
    });
    httpBase = `http://127.0.0.1:${notifier.port}`;
    alice = await harness.user();
  });
  afterAll(async () => {
    postgres.restore();
    nats.restore();
    jwks.restore();
    await harness.stop();
    await Promise.all([postgres.stop(), nats.stop(), jwks.stop()]);
  });

  const probe = async (path: string) => {
    const response = await fetch(`${httpBase}${path}`);
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

  async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > withinMs) {
        throw new Error(`not within ${withinMs} ms`);
      }
      await sleep(100);
    }
  }

  it('Postgres gone: handshakes, auth messages and subscribes answer service_unavailable naming postgres; readiness down; back by itself', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const open = await TestClient.connect(notifier.url, { headers: { 'x-api-key': alice.apiKey } });
    postgres.cut();
    try {
      const started = Date.now();
      const refused = await TestClient.refused(notifier.url, { 'x-api-key': alice.apiKey });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(refused).toEqual({
        status: 503,
        body: { error: expect.any(String), code: 'service_unavailable', reason: 'postgres' },
      });

      const browser = await TestClient.connect(notifier.url);
      browser.send({ op: 'auth', api_key: alice.apiKey, id: 1 });
      expect(await browser.next((message) => message.id === 1)).toMatchObject({
        type: 'error',
        code: 'service_unavailable',
        reason: 'postgres',
      });
      expect((await browser.closed).code).toBe(1011);

      expect(await open.subscribe(tradeId)).toMatchObject({
        type: 'error',
        code: 'service_unavailable',
        reason: 'postgres',
      });

      expect((await probe('/livez')).status).toBe(200);
      const readiness = await probe('/readyz');
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({
        code: 'service_unavailable',
        reason: 'postgres',
        checks: { postgres: 'down', nats: 'up' },
      });
      expect(readiness.headers.get('retry-after')).toBe('2');
    } finally {
      postgres.restore();
    }
    await eventually(async () => (await probe('/readyz')).status === 200, 10_000);
    expect(await open.subscribe(tradeId)).toMatchObject({ type: 'subscribed', status: 'active' });
    const again = await TestClient.connect(notifier.url, {
      headers: { 'x-api-key': alice.apiKey },
    });
    await again.close();
    await open.close();
  });

  it('NATS gone: readiness names nats at once; once back, events flow again with no restart', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const client = await TestClient.connect(notifier.url, {
      headers: { 'x-api-key': alice.apiKey },
    });
    await client.subscribe(tradeId);
    nats.cut();
    try {
      await eventually(async () => (await probe('/readyz')).status === 503, 3_000);
      const readiness = await probe('/readyz');
      expect(readiness.body).toMatchObject({
        reason: 'nats',
        checks: { postgres: 'up', nats: 'down' },
      });
      expect((await probe('/livez')).status).toBe(200);
      await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused');
    } finally {
      nats.restore();
    }
    await eventually(async () => (await probe('/readyz')).status === 200, 10_000);
    const after = await harness.publishLifecycle(alice, tradeId, 'trade.resumed', 'active');
    await client.next((message) => message.event_id === after, 10_000);
    expect(client.events().map((event) => event.event)).toEqual(['trade.paused', 'trade.resumed']);
    await client.close();
  });

  it('identity provider unreachable: a JWT handshake is refused 503 naming it, not 401; back by itself', async () => {
    const token = await harness.jwks.sign({
      sub: alice.userId,
      wallet_address: alice.wallet,
    });
    const headers = { authorization: `Bearer ${token}` };
    jwks.cut();
    try {
      expect(await TestClient.refused(notifier.url, headers)).toEqual({
        status: 503,
        body: {
          error: expect.any(String),
          code: 'service_unavailable',
          reason: 'identity_provider',
        },
      });
    } finally {
      jwks.restore();
    }
    const client = await TestClient.connect(notifier.url, { headers });
    await client.close();
  });
});
