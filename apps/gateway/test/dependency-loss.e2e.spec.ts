import { TcpProxy } from '@sts/testing';
import { GatewayHarness, type HttpResult } from './gateway-harness';
import { sleep } from '@sts/platform';

/**
 * An amendment with NATS cut or partitioned answers after the owner's 500 ms
 * acknowledgement timeout, not after NATS comes back: NATS stays away until the
 * answer is judged, so a wait for its return would hang to the spec's timeout.
 * The bound only has to tell the two apart; slow CI hours answered in 1,546
 * and 4,418 ms (the amendment's transaction and locks, on a loaded machine).
 */
const AMEND_WITHOUT_NATS_MS = 10_000;
/** GATEWAY_CREATE_DEADLINE_MS's default: a create is answered by then, whatever holds it up. */
const CREATE_DEADLINE_MS = 4_000;

/**
 * The gateway loses Postgres, NATS or (behind the budget service) Redis. Each
 * dependency is reached through a TcpProxy this spec cuts and restores: the
 * machine's shared servers are never touched. What must hold: a 503
 * service_unavailable naming the dependency (with Retry-After) within a few
 * seconds, never a 500 or a hang; liveness up, readiness down naming it; and
 * recovery by itself once the dependency is back.
 */
describe('dependency loss at the gateway', () => {
  const postgres = new TcpProxy(5432);
  const nats = new TcpProxy(4222);
  const redis = new TcpProxy(6379);
  /** The budget service's own NATS link: cut, the service is a replica on a host cut off. */
  const budgetNats = new TcpProxy(4222);
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  let tradeId: string;

  beforeAll(async () => {
    await Promise.all([postgres.start(), nats.start(), redis.start(), budgetNats.start()]);
    await gateway.start({
      venues: true,
      budget: true,
      gatewayEnv: (env) => ({
        ...env,
        DATABASE_URL: postgres.rewrite(env.DATABASE_URL),
        NATS_URL: `nats://127.0.0.1:${nats.port}`,
      }),
      budgetEnv: (env) => ({
        ...env,
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        NATS_URL: `nats://127.0.0.1:${budgetNats.port}`,
      }),
    });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter', 'extended', 'aster']);
    const created = await create();
    expect(created.status).toBe(202);
    tradeId = created.body.trade_id;
  });
  afterAll(async () => {
    postgres.restore();
    nats.restore();
    redis.restore();
    budgetNats.restore();
    await gateway.stop();
    await Promise.all([postgres.stop(), nats.stop(), redis.stop(), budgetNats.stop()]);
  });

  const pairs = [
    ['lighter', 'extended'],
    ['extended', 'lighter'],
    ['paradex', 'aster'],
    ['aster', 'paradex'],
    ['lighter', 'paradex'],
  ];
  let nextPair = 0;
  /** A create that never meets the maker cap: each uses the next venue pair and its trade is finished right away. */
  async function create(): Promise<HttpResult> {
    const [long, short] = pairs[nextPair++ % pairs.length];
    const response = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { long_exchange: long, short_exchange: short }),
    });
    if (response.status === 202) {
      await gateway.query(
        `UPDATE trades SET status = 'completed', completed_at = now() WHERE id = $1`,
        [response.body.trade_id],
      );
    }
    return response;
  }

  /** An amendable (active) trade with no worker behind it: a copy of the first trade's row. */
  async function activeTrade(): Promise<string> {
    const [{ id }] = await gateway.query<{ id: string }>(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
         maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group, target_spread,
         spread_condition, spread_type, target_size, size_type, execution_type, max_slippage, status,
         rate_budget, idempotency_key)
       SELECT gen_random_uuid(), user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
         maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group, target_spread,
         spread_condition, spread_type, target_size, size_type, execution_type, max_slippage, 'active',
         rate_budget, 'copied-' || md5(random()::text)
       FROM trades WHERE id = $1 RETURNING id`,
      [tradeId],
    );
    return id;
  }

  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const started = Date.now();
    const result = await work();
    return [result, Date.now() - started];
  };

  const calls: Array<[string, () => Promise<HttpResult>]> = [
    ['create', () => create()],
    ['get', () => gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers })],
    ['list', () => gateway.request('GET', '/api/v1/trades', { headers: trader.headers })],
    [
      'events',
      () => gateway.request('GET', `/api/v1/trades/${tradeId}/events`, { headers: trader.headers }),
    ],
    ['maintenance', () => gateway.request('GET', '/api/v1/maintenance')],
  ];

  async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > withinMs) {
        throw new Error(`not recovered within ${withinMs} ms`);
      }
      await sleep(100);
    }
    return Date.now() - started;
  }

  const ready = async (): Promise<boolean> =>
    (await gateway.request('GET', '/readyz')).status === 200;

  function expectUnavailable(response: HttpResult, reason: string): void {
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'service_unavailable',
      reason,
    });
    expect(response.headers.get('retry-after')).toBe('2');
  }

  it('Postgres restarting: 503 naming postgres within 3 s on every call, readiness down, back by itself', async () => {
    postgres.cut();
    try {
      for (const [, call] of calls) {
        const [response, elapsedMs] = await timed(call);
        expectUnavailable(response, 'postgres');
        expect(elapsedMs).toBeLessThan(3_000);
      }
      expect((await gateway.request('GET', '/livez')).status).toBe(200);
      // Operators hear of it once (not once per request), with no query parameters in the line.
      const warnings = gateway
        .logs()
        .split('\n')
        .filter((line) => line.includes('a dependency cannot be reached'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"dependency":"postgres"');
      expect(warnings[0]).not.toContain('"parameters"');
      const readiness = await gateway.request('GET', '/readyz');
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({
        code: 'service_unavailable',
        reason: 'postgres',
        checks: { postgres: 'down', nats: 'up' },
      });
    } finally {
      postgres.restore();
    }
    await eventually(ready, 10_000);
    for (const [name, call] of calls) {
      const response = await call();
      expect([name, response.status]).toEqual([name, name === 'create' ? 202 : 200]);
    }
  });

  it('Postgres partitioned (connections hang): 503 naming postgres, bounded by the query timeout, never a hang', async () => {
    // The key cached and the change feed listening: its fence hangs too, and must not add a
    // second wait to the request's own read.
    await eventually(ready, 10_000);
    await eventually(
      async () =>
        (await gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers }))
          .status === 200,
      5_000,
    );
    postgres.blackhole();
    try {
      const [response, elapsedMs] = await timed(() =>
        gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers }),
      );
      expectUnavailable(response, 'postgres');
      expect(elapsedMs).toBeLessThan(5_000);
    } finally {
      postgres.restore();
    }
    await eventually(
      async () =>
        (await gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers }))
          .status === 200,
      10_000,
    );
  });

  it('NATS down: creates answer 503 naming nats at once, amendments are stored (202), readiness names nats; back by itself', async () => {
    nats.cut();
    try {
      await eventually(async () => !(await ready()), 3_000);
      const [response, elapsedMs] = await timed(() => create());
      expectUnavailable(response, 'nats');
      expect(elapsedMs).toBeLessThan(1_000);
      const readiness = await gateway.request('GET', '/readyz');
      expect(readiness.body).toMatchObject({
        reason: 'nats',
        checks: { postgres: 'up', nats: 'down' },
      });

      const activeId = await activeTrade();
      const [amended, amendMs] = await timed(() =>
        gateway.request('PATCH', `/api/v1/trades/${activeId}`, {
          headers: trader.headers,
          body: { target_size: '0.02' },
        }),
      );
      expect(amended.status).toBe(202);
      expect(amended.body.status).toBe('amendment_persisted');
      expect(amendMs).toBeLessThan(AMEND_WITHOUT_NATS_MS);
    } finally {
      nats.restore();
    }
    await eventually(ready, 10_000);
    expect((await create()).status).toBe(202);
  });

  it('NATS partitioned (the link looks up, nothing passes): creates 503 within the budget timeout, amendments are stored (202); never a hang', async () => {
    nats.blackhole();
    try {
      const [response, elapsedMs] = await timed(() => create());
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: expect.any(String),
        code: 'service_unavailable',
        reason: expect.stringMatching(/^(nats|budget_service)$/),
      });
      expect(elapsedMs).toBeLessThan(3_000);
      const activeId = await activeTrade();
      const [amended, amendMs] = await timed(() =>
        gateway.request('PATCH', `/api/v1/trades/${activeId}`, {
          headers: trader.headers,
          body: { max_slippage: '0.002' },
        }),
      );
      expect(amended.status).toBe(202);
      expect(amended.body.status).toBe('amendment_persisted');
      expect(amendMs).toBeLessThan(AMEND_WITHOUT_NATS_MS);
    } finally {
      nats.restore();
    }
    await eventually(async () => (await create()).status === 202, 10_000);
  });

  it('budget service cut off (its subscription still counted by NATS): creates of one wallet queued behind its timeouts answer 503 by their deadline, never past a client 5 s', async () => {
    // Every reservation goes to a subscriber that never hears it and takes the
    // whole budget timeout (2 s). Creates of one wallet run one group at a time
    // (one per group, the cap lock between groups): without a deadline the
    // fourth waited three timeouts and answered after 6-8 s.
    budgetNats.blackhole();
    try {
      const before = await gateway.query(`SELECT count(*)::int AS n FROM trades`);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() =>
          timed(() =>
            gateway.request('POST', '/api/v1/trades', {
              headers: trader.headers,
              body: gateway.tradeBody(trader.wallet, {
                long_exchange: 'lighter',
                short_exchange: 'extended',
              }),
            }),
          ),
        ),
      );
      for (const [response, elapsedMs] of answers) {
        expectUnavailable(response, response.body.reason);
        expect(['budget_service', 'postgres']).toContain(response.body.reason);
        expect(elapsedMs).toBeLessThan(CREATE_DEADLINE_MS + 1_000);
      }
      expect(await gateway.query(`SELECT count(*)::int AS n FROM trades`)).toEqual(before);
    } finally {
      budgetNats.restore();
    }
    await eventually(async () => (await create()).status === 202, 10_000);
  });

  it('Postgres lost while a create holds its connection, waiting on the budget: 503, and the gateway lives on', async () => {
    // The create takes its connection, then waits for the budget service (NATS
    // blackholed); Postgres goes away meanwhile. The idle, checked-out
    // connection emits 'error': unheard, it ended the process (fault matrix).
    nats.blackhole();
    let pending: Promise<HttpResult> | undefined;
    try {
      pending = create();
      await sleep(500);
      postgres.cut();
      const response = await pending;
      expect(response.status).toBe(503);
    } finally {
      nats.restore();
      postgres.restore();
    }
    await eventually(ready, 10_000);
    await eventually(async () => (await create()).status === 202, 10_000);
  });

  it('Redis gone behind the budget service: creates answer 503 naming what is missing, write nothing; back by itself', async () => {
    redis.cut();
    try {
      const before = await gateway.query(`SELECT count(*)::int AS n FROM trades`);
      const [response, elapsedMs] = await timed(() => create());
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: expect.any(String),
        code: 'service_unavailable',
        reason: expect.stringMatching(/^(redis|budget_service)$/),
      });
      expect(elapsedMs).toBeLessThan(3_000);
      expect(await gateway.query(`SELECT count(*)::int AS n FROM trades`)).toEqual(before);
    } finally {
      redis.restore();
    }
    await eventually(async () => (await create()).status === 202, 10_000);
  });

  describe('the identity provider unreachable', () => {
    const jwks = new TcpProxy(0);
    const sessionGateway = new GatewayHarness();

    beforeAll(async () => {
      await jwks.start();
      await sessionGateway.start({
        gatewayEnv: (env) => {
          jwks.retarget(Number(new URL(env.AUTH_JWKS_URL).port));
          return { ...env, AUTH_JWKS_URL: jwks.rewrite(env.AUTH_JWKS_URL) };
        },
      });
    });
    afterAll(async () => {
      jwks.restore();
      await sessionGateway.stop();
      await jwks.stop();
    });

    it('answers a browser session 503 naming the identity provider, not 401 (which would sign it out); back by itself', async () => {
      const token = await sessionGateway.jwks.sign({
        sub: `idp|${Date.now()}`,
        wallet_address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      });
      const verify = () =>
        sessionGateway.request('POST', '/api/v1/auth/verify', {
          headers: { authorization: `Bearer ${token}` },
        });
      jwks.cut();
      try {
        const [response, elapsedMs] = await timed(verify);
        expectUnavailable(response, 'identity_provider');
        expect(elapsedMs).toBeLessThan(3_000);
      } finally {
        jwks.restore();
      }
      expect((await verify()).status).toBe(200);
    });
  });
});
