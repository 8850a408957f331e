import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  BudgetClient,
  BudgetUnavailableError,
  TokenBucket,
  applyToBuckets,
  type TradeBudget,
} from '@sts/budget-client';
import type { BudgetAccount } from '@sts/contracts';
import { connectNats, loadVenueRegistry, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account, eventually, TradeTable } from '../test/budget-fixtures';
import { ShareLedger } from '../test/share-ledger';
import { PrivateRedis } from '../test/private-redis';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

const VENUE_ENV = {
  VENUE_PARADEX_RATE_LIMIT_PER_S: '30',
  VENUE_PARADEX_MIN_TRADE_BUDGET: '2',
  VENUE_PARADEX_SHARED_ACCOUNT_LIMIT: 'false',
  VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '20',
  VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '2',
  VENUE_HYPERLIQUID_SHARED_ACCOUNT_LIMIT: 'true',
  VENUE_ASTER_SHARED_ACCOUNT_LIMIT: 'false',
};

/**
 * Failure and recovery on a Redis server of the spec's own (see PrivateRedis):
 * the spec flushes it, kills it and brings it back empty, which it may never
 * do to the machine's shared Redis. A FLUSHALL here is exactly what a flushed
 * production Redis looks like to the service.
 */
describe('budget service robustness (private Redis, real NATS and Postgres)', () => {
  let redis: PrivateRedis;
  let db: TestDatabase;
  let nc: NatsConnection;
  let service: BudgetService | undefined;
  let client: BudgetClient;
  let trades: TradeTable;
  let ledger: ShareLedger;
  let stopLedger: () => void;
  const ns = testNamespace();
  const paradex = account('paradex');
  const hyperliquid = account('hyperliquid');
  const seeded = { pending: randomUUID(), active: randomUUID(), completed: randomUUID() };

  const start = async (venueEnv: Record<string, string> = VENUE_ENV): Promise<void> => {
    const venues = loadVenueRegistry(venueEnv);
    const settings = loadBudgetSettings({
      DATABASE_URL: db.url,
      NATS_PREFIX: ns.natsPrefix,
      REDIS_URL: redis.url,
      REDIS_PREFIX: ns.redisPrefix,
      LOG_LEVEL: 'silent',
      BUDGET_SWEEP_INTERVAL_MS: '200',
      BUDGET_HOLDER_GRACE_MS: '3000',
    });
    service = await startBudgetService(settings, { venues });
  };

  const stop = async (): Promise<void> => {
    await service?.close();
    service = undefined;
  };

  const createTrade = async (maker: BudgetAccount, hedge: BudgetAccount): Promise<TradeBudget> => {
    const id = randomUUID();
    const grant = await client.reserve({ tradeId: id, maker, hedge });
    await trades.insert({
      id,
      maker,
      hedge,
      rateBudget: grant.rateBudget,
      hedgeRateBudget: grant.hedgeRateBudget,
    });
    return grant;
  };

  const holdersOf = async (target: BudgetAccount): Promise<string[]> =>
    (await client.account(target)).holders.map((h) => `${h.trade_id}|${h.role}`).sort();

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    db = await createTestDatabase();
    trades = await TradeTable.open(db.url);
    // Trades that existed before the budget service ever ran (rows show 99: the rebuild rewrites them).
    await trades.insert({ id: seeded.pending, maker: paradex, hedge: hyperliquid, rateBudget: 99 });
    await trades.insert({
      id: seeded.active,
      maker: paradex,
      hedge: account('aster'),
      status: 'active',
      rateBudget: 99,
    });
    await trades.insert({
      id: seeded.completed,
      maker: paradex,
      hedge: hyperliquid,
      status: 'completed',
      rateBudget: 99,
    });
    nc = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'budget-robustness-spec' });
    client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 2_000 });
    // The limits the spec starts with: the last test only lowers one.
    const limits = loadVenueRegistry(VENUE_ENV);
    ledger = new ShareLedger(
      (a) => limits[a.venue].rateLimitPerS,
      (venue) => limits[venue].ipRateLimitPerS,
    );
    stopLedger = client.onAnyChange(ledger.onChange);
    await nc.flush();
    await start();
  });

  afterAll(async () => {
    stopLedger?.();
    client?.close();
    await stop();
    await nc?.drain();
    await trades?.close();
    await db?.drop();
    await redis?.stop();
  });

  afterEach(() => {
    // Reset so one over-allocation fails the test that caused it, not every later one.
    const violations = ledger?.takeViolations() ?? [];
    expect(violations).toEqual([]);
  });

  it('builds its state from the live trades in Postgres when Redis is empty', async () => {
    expect(await holdersOf(paradex)).toEqual(
      [`${seeded.pending}|maker`, `${seeded.active}|maker`].sort(),
    );
    expect(await holdersOf(hyperliquid)).toEqual([`${seeded.pending}|hedge`]);
    const pending = await client.get(seeded.pending);
    expect(pending?.rateBudget).toBe(15);
    expect(pending?.hedgeRateBudget).toBe(20);
    expect(await client.get(seeded.completed)).toBeNull();
    await eventually(async () => {
      expect(await trades.budgets(seeded.pending)).toEqual({
        rate_budget: 15,
        hedge_rate_budget: 20,
      });
      expect(await trades.budgets(seeded.active)).toEqual({
        rate_budget: 15,
        hedge_rate_budget: null,
      });
    });
    // The completed trade's row is history: never rewritten.
    expect((await trades.budgets(seeded.completed)).rate_budget).toBe(99);
  });

  it('rebuilds after FLUSHALL with the same division, and versions keep growing', async () => {
    const third = await createTrade(paradex, account('aster'));
    expect(third.rateBudget).toBe(10);
    const bucket = new TokenBucket(1);
    const watch = client.watchTrade(seeded.active, applyToBuckets({ maker: bucket }));
    try {
      await eventually(() => expect(bucket.rate).toBe(10));
      const before = await client.account(paradex);

      const admin = new Redis(redis.url);
      await admin.flushall();
      await admin.quit();

      const after = await client.account(paradex);
      expect(after.holders.map((h) => h.trade_id).sort()).toEqual(
        before.holders.map((h) => h.trade_id).sort(),
      );
      expect(after.share).toBe(10);
      expect(after.version).toBeGreaterThan(before.version);

      // A change after the rebuild reaches the worker: its version is newer than all it saw.
      await trades.setStatus(third.tradeId, 'canceled');
      await client.release(third.tradeId, 'canceled');
      await eventually(() => expect(bucket.rate).toBe(15));
    } finally {
      watch.close();
      bucket.close();
    }
  });

  it('answers budget_unavailable while Redis is down; running trades keep their last budget', async () => {
    const bucket = new TokenBucket(1);
    const watch = client.watchTrade(seeded.active, applyToBuckets({ maker: bucket }));
    try {
      await eventually(() => expect(bucket.rate).toBe(15));
      await redis.stop();

      const refused = await client
        .reserve({ tradeId: randomUUID(), maker: paradex, hedge: account('aster') })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BudgetUnavailableError);
      expect((refused as BudgetUnavailableError).code).toBe('budget_unavailable');
      await expect(client.get(seeded.active)).rejects.toBeInstanceOf(BudgetUnavailableError);
      await watch.refresh();
      expect(bucket.rate).toBe(15);
      expect(watch.current('maker')).toBe(15);

      // Redis comes back empty: the next request rebuilds from Postgres.
      await redis.restart();
      let grant: TradeBudget | undefined;
      await eventually(async () => {
        grant = await createTrade(paradex, account('aster'));
      }, 10_000);
      expect(grant?.rateBudget).toBe(10);
      await eventually(() => expect(bucket.rate).toBe(10));
    } finally {
      watch.close();
      bucket.close();
    }
  });

  it('gives a trade watched while the service was away its share as soon as it is back, not a period later', async () => {
    await stop();
    const bucket = new TokenBucket(1);
    // A period far away: only the retry of the failed first read can bring the share in time.
    const watch = client.watchTrade(seeded.active, applyToBuckets({ maker: bucket }), {
      refreshMs: 3_600_000,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(watch.current('maker')).toBeUndefined();
      await start();
      await eventually(() => expect(watch.current('maker')).toBeGreaterThan(0), 4_000);
      expect(bucket.rate).toBe(watch.current('maker'));
    } finally {
      watch.close();
      bucket.close();
    }
  });

  it('sweeps holders whose trade ended or never appeared, and adopts live trades without one', async () => {
    const wallet = account('paradex');
    const kept = await createTrade(wallet, account('aster'));
    const ended = await createTrade(wallet, account('aster'));
    // A create whose row never came (gateway crashed between reserve and insert).
    const orphan = randomUUID();
    await client.reserve({ tradeId: orphan, maker: wallet, hedge: account('aster') });
    expect((await client.get(kept.tradeId))?.rateBudget).toBe(10);

    // The worker died before releasing: the trade is terminal in Postgres only.
    await trades.setStatus(ended.tradeId, 'failed');
    await eventually(async () => {
      expect(await holdersOf(wallet)).toEqual([`${kept.tradeId}|maker`, `${orphan}|maker`].sort());
    });
    // The orphan survives its grace period (3 s), then goes.
    await eventually(async () => {
      expect(await holdersOf(wallet)).toEqual([`${kept.tradeId}|maker`]);
    }, 8_000);
    expect(ledger.received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ trade_id: ended.tradeId, share: 0, cause: 'swept' }),
        expect.objectContaining({ trade_id: orphan, share: 0, cause: 'swept' }),
      ]),
    );
    await eventually(async () => expect((await trades.budgets(kept.tradeId)).rate_budget).toBe(30));

    // A live trade with no holder (its reservation lost) is adopted and counted.
    const unheld = randomUUID();
    await trades.insert({ id: unheld, maker: wallet, hedge: account('aster'), rateBudget: 30 });
    await eventually(async () => {
      expect(await holdersOf(wallet)).toEqual([`${kept.tradeId}|maker`, `${unheld}|maker`].sort());
      expect((await trades.budgets(unheld)).rate_budget).toBe(15);
      expect((await trades.budgets(kept.tradeId)).rate_budget).toBe(15);
    });
  });

  it("lists an account's holders oldest first in a read; the sweep's refresh names none of them", async () => {
    // Eight holders: a Redis set's own order matches the reserve order by chance once in 40,320.
    const wallet = account('paradex');
    const joined: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      joined.push((await createTrade(wallet, account('aster'))).tradeId);
    }
    const state = await client.account(wallet);
    expect(state.holders.map((h) => h.trade_id)).toEqual(joined);
    // The refresh is one message for the account, whatever its number of
    // holders: its share and holder count, and nobody joining or leaving.
    // (A sweep during the creates refreshed fewer: wait for one after them.)
    const refreshed = () =>
      ledger.messages.find(
        (m) => m.wallet === wallet.wallet && m.cause === 'refresh' && m.version >= state.version,
      );
    await eventually(() => expect(refreshed()).toBeDefined());
    expect(refreshed()).toEqual(
      expect.objectContaining({
        share: state.share,
        version: state.version,
        holder_count: 8,
        joined: [],
        left: [],
      }),
    );
    // A listener that knows the holders from their reserves applies it to each of them.
    for (const tradeId of joined) {
      expect(ledger.shareOf(tradeId)).toBe(state.share);
    }
  });

  it('keeps reservations across a restart of the budget service, including one whose row is not written yet', async () => {
    const wallet = account('paradex');
    const running = await createTrade(wallet, account('aster'));
    const inFlight = randomUUID();
    await client.reserve({ tradeId: inFlight, maker: wallet, hedge: account('aster') });
    await stop();
    await start();
    expect(await holdersOf(wallet)).toEqual(
      [`${running.tradeId}|maker`, `${inFlight}|maker`].sort(),
    );
    expect((await client.get(running.tradeId))?.rateBudget).toBe(15);
    // The gateway finishes the create; the trade keeps its grant.
    await trades.insert({ id: inFlight, maker: wallet, hedge: account('aster'), rateBudget: 15 });
    expect((await client.get(inFlight))?.rateBudget).toBe(15);
  });

  it('re-divides the accounts when a venue limit changes in the registry', async () => {
    const wallet = account('paradex');
    const first = await createTrade(wallet, account('aster'));
    await createTrade(wallet, account('aster'));
    expect((await client.get(first.tradeId))?.rateBudget).toBe(15);
    await stop();
    await start({ ...VENUE_ENV, VENUE_PARADEX_RATE_LIMIT_PER_S: '24' });
    await eventually(async () => expect((await client.get(first.tradeId))?.rateBudget).toBe(12));
    expect(ledger.received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ trade_id: first.tradeId, share: 12, cause: 'resized' }),
      ]),
    );
    await eventually(async () =>
      expect((await trades.budgets(first.tradeId)).rate_budget).toBe(12),
    );
  });
});
