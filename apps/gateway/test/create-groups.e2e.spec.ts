import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { BudgetClient } from '@sts/budget-client';
import { connectNats, loadVenueRegistry, type NatsConnection } from '@sts/platform';
import { GatewayHarness, type HttpResult } from './gateway-harness';

type Trader = Awaited<ReturnType<GatewayHarness['trader']>>;

/**
 * Creates that wait run as one group: one transaction for all of them. The
 * spec makes them wait deterministically: one group in flight at a time
 * (GATEWAY_CREATE_GROUPS_IN_FLIGHT=1), and that group held on a cap lock the
 * spec takes itself, until the gateway's own gauge shows every create queued.
 */
describe('creates in groups', () => {
  const gateway = new GatewayHarness();
  let lockHolder: Client;
  let nc: NatsConnection;
  let budgets: BudgetClient;
  let blocker: Trader;

  beforeAll(async () => {
    await gateway.start({
      venues: true,
      budget: true,
      env: { GATEWAY_CREATE_GROUPS_IN_FLIGHT: '1', GATEWAY_CREATE_GROUP_MAX: '32' },
    });
    blocker = await gateway.trader();
    lockHolder = new Client({ connectionString: gateway.env['DATABASE_URL'] });
    await lockHolder.connect();
    nc = await connectNats({
      url: gateway.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
      name: 'create-groups-spec',
    });
    budgets = new BudgetClient(nc, { natsPrefix: gateway.env['NATS_PREFIX']! });
  });
  afterAll(async () => {
    budgets?.close();
    await nc?.drain();
    await lockHolder?.end();
    await gateway.stop();
  });

  const create = (trader: Trader, body: Record<string, unknown>): Promise<HttpResult> =>
    gateway.request('POST', '/api/v1/trades', { headers: trader.headers, body });

  const gauge = async (name: string): Promise<number> => {
    const metric = await gateway.metrics.registry.getSingleMetric(name)?.get();
    return metric?.values[0]?.value ?? Number.NaN;
  };

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await sleep(20);
    }
  }

  const capLockOf = (trader: Trader): string =>
    `maker-cap:${trader.wallet.toLowerCase()}:${loadVenueRegistry(gateway.env).hyperliquid.capGroup}`;

  /**
   * Holds the blocker's cap lock, starts its create (the one group in
   * flight, stuck on the lock), starts `creates` and waits until all of them
   * are queued behind it; then lets go. The creates' answers still to come.
   */
  async function queueAsOneGroup(
    creates: Array<() => Promise<HttpResult>>,
  ): Promise<{ held: Promise<HttpResult>; answers: Array<Promise<HttpResult>> }> {
    const lock = capLockOf(blocker);
    await lockHolder.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
    try {
      const held = create(blocker, gateway.tradeBody(blocker.wallet));
      await until(
        async () =>
          (
            await gateway.query(
              `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
            )
          )[0].n === 1,
        'the first group to wait on the cap lock',
      );
      const answers = creates.map((start) => start());
      await until(
        async () => (await gauge('sts_gateway_creates_waiting')) === creates.length,
        `${creates.length} creates waiting`,
      );
      return { held, answers };
    } finally {
      await lockHolder.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
    }
  }

  /** queueAsOneGroup, then every answer. */
  async function asOneGroup(
    creates: Array<() => Promise<HttpResult>>,
  ): Promise<{ held: HttpResult; answers: HttpResult[] }> {
    const queued = await queueAsOneGroup(creates);
    return { held: await queued.held, answers: await Promise.all(queued.answers) };
  }

  /** The transactions that wrote these trades (a row's xmin). */
  const writers = async (tradeIds: string[]): Promise<Set<string>> =>
    new Set(
      (
        await gateway.query<{ xmin: string }>(
          `SELECT xmin::text FROM trades WHERE id = ANY($1::uuid[])`,
          [tradeIds],
        )
      ).map((row) => row.xmin),
    );

  it('admits and inserts the creates that waited in one transaction, each answered as if alone', async () => {
    const traders = await Promise.all(Array.from({ length: 6 }, () => gateway.trader()));
    const [a, b, c, full, replaying, twice] = traders as [
      Trader,
      Trader,
      Trader,
      Trader,
      Trader,
      Trader,
    ];
    // `full` already has the cap's 2 live maker trades; `replaying` made its key's trade before.
    for (let i = 0; i < 2; i += 1) {
      expect((await create(full, gateway.tradeBody(full.wallet))).status).toBe(202);
    }
    const replayedBody = gateway.tradeBody(replaying.wallet);
    const original = await create(replaying, replayedBody);
    expect(original.status).toBe(202);
    const sameKey = gateway.tradeBody(twice.wallet);

    const { held, answers } = await asOneGroup([
      () => create(a, gateway.tradeBody(a.wallet)),
      () => create(b, gateway.tradeBody(b.wallet)),
      () => create(c, gateway.tradeBody(c.wallet, { maker_leg: 'short' })),
      () => create(full, gateway.tradeBody(full.wallet)),
      () => create(replaying, replayedBody),
      () => create(twice, sameKey),
      // Same user and key: never in the group of the first, it replays it.
      () => create(twice, sameKey),
    ]);
    expect(held.status).toBe(202);
    const [first, second, third, capped, replay, ...sameKeyAnswers] = answers as HttpResult[];
    // Which of the same-key pair arrives first is the network's choice: it creates, the other replays it.
    const [once, again] = [...sameKeyAnswers].sort((x, y) => y.status - x.status) as [
      HttpResult,
      HttpResult,
    ];
    for (const answer of [first, second, third, once]) {
      expect(answer).toMatchObject({
        status: 202,
        body: { status: 'pending', rate_budget: expect.any(Number) },
      });
    }
    expect(capped).toMatchObject({ status: 409, body: { code: 'maker_cap_exceeded' } });
    expect(replay).toMatchObject({
      status: 200,
      body: { trade_id: original.body.trade_id, idempotent: true },
    });
    expect(again).toMatchObject({
      status: 200,
      body: { trade_id: once.body.trade_id, idempotent: true },
    });
    const grouped = [first, second, third, once].map((answer) => answer.body.trade_id as string);
    expect((await writers(grouped)).size).toBe(1);
    expect(await writers(grouped)).not.toEqual(await writers([held.body.trade_id]));
    // Nothing more was written: one row per 202, one start command per row.
    const rows = await gateway.query(
      `SELECT count(*)::int AS n FROM trades WHERE user_id = ANY($1)`,
      [traders.map((trader) => trader.userId)],
    );
    expect(rows[0].n).toBe(4 + 2 + 1);
    const commands = await gateway.query(
      `SELECT count(*)::int AS n FROM outbox WHERE payload->'payload'->>'trade_id' = ANY($1)`,
      [grouped],
    );
    expect(commands[0].n).toBe(4);
  });

  it('runs a group that fails as a whole again create by create: one bad insert fails alone and gives its budget back', async () => {
    const traders = await Promise.all(Array.from({ length: 4 }, () => gateway.trader()));
    const [a, b, c, bad] = traders as [Trader, Trader, Trader, Trader];
    // A fault of the spec's making: this one row cannot be inserted.
    await gateway.query(`
      CREATE FUNCTION refuse_poisoned_trade() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.target_size = 0.0777 THEN RAISE EXCEPTION 'poisoned trade'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_poisoned_trade BEFORE INSERT ON trades
        FOR EACH ROW EXECUTE FUNCTION refuse_poisoned_trade()`);
    try {
      const { answers } = await asOneGroup([
        () => create(a, gateway.tradeBody(a.wallet)),
        () => create(bad, gateway.tradeBody(bad.wallet, { target_size: '0.0777' })),
        () => create(b, gateway.tradeBody(b.wallet)),
        () => create(c, gateway.tradeBody(c.wallet)),
      ]);
      const [first, poisoned, second, third] = answers as HttpResult[];
      for (const answer of [first, second, third]) {
        expect(answer.status).toBe(202);
      }
      expect(poisoned).toMatchObject({ status: 500, body: { code: 'internal_error' } });
      const good = [first, second, third].map((answer) => answer.body.trade_id as string);
      // Each committed alone, after the group's transaction was rolled back.
      expect((await writers(good)).size).toBe(3);
      const badRows = await gateway.query(
        `SELECT count(*)::int AS n FROM trades WHERE user_id = $1`,
        [bad.userId],
      );
      expect(badRows[0].n).toBe(0);
      // The failed create holds no budget; the others keep theirs.
      const badAccount = await budgets.account({
        venue: 'hyperliquid',
        wallet: bad.wallet.toLowerCase(),
      });
      expect(badAccount.holders).toEqual([]);
      for (const trader of [a, b, c]) {
        const account = await budgets.account({
          venue: 'hyperliquid',
          wallet: trader.wallet.toLowerCase(),
        });
        expect(account.holders).toHaveLength(1);
      }
    } finally {
      await gateway.query(`DROP TRIGGER refuse_poisoned_trade ON trades`);
    }
  });

  it('gives up a lock held elsewhere after its bound: the others commit, the contended create waits alone', async () => {
    const [a, b, contended] = (await Promise.all(
      Array.from({ length: 3 }, () => gateway.trader()),
    )) as [Trader, Trader, Trader];
    // Another session holds the contended wallet's cap lock (another replica's create, say).
    const elsewhere = new Client({ connectionString: gateway.env['DATABASE_URL'] });
    await elsewhere.connect();
    try {
      await elsewhere.query('SELECT pg_advisory_lock(hashtext($1))', [capLockOf(contended)]);
      const { held, answers } = await queueAsOneGroup([
        () => create(a, gateway.tradeBody(a.wallet)),
        () => create(contended, gateway.tradeBody(contended.wallet)),
        () => create(b, gateway.tradeBody(b.wallet)),
      ]);
      const [first, waiting, second] = answers as [
        Promise<HttpResult>,
        Promise<HttpResult>,
        Promise<HttpResult>,
      ];
      await held; // the blocker's own answer is not this case's (its cap may be full by now)
      let settled = false;
      void waiting.finally(() => (settled = true));
      // The lock is still held: the others are answered anyway, within the bound (250 ms) and a
      // retry, well before the statement timeout (3 s) would have failed the group.
      const timeout = sleep(2_000, undefined, { ref: false }).then(() => 'timed out' as const);
      for (const answer of [first, second]) {
        expect(await Promise.race([answer.then((r) => r.status), timeout])).toBe(202);
      }
      expect(settled).toBe(false);
      await elsewhere.query('SELECT pg_advisory_unlock(hashtext($1))', [capLockOf(contended)]);
      expect((await waiting).status).toBe(202);
    } finally {
      await elsewhere.end();
    }
  });
});
