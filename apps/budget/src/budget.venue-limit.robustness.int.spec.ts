import Redis from 'ioredis';
import { BudgetClient } from '@sts/budget-client';
import type { BudgetAccount } from '@sts/contracts';
import { connectNats, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account, eventually, TradeTable } from '../test/budget-fixtures';
import { ShareLedger } from '../test/share-ledger';
import { IP_LIMIT, ipLimitedVenues, TradeDesk } from '../test/ip-limited-venues';
import { PrivateRedis } from '../test/private-redis';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

/**
 * The venue term through a flush and a registry change, on a Redis of the
 * spec's own (see PrivateRedis). Hyperliquid live: 20 tokens/s per account,
 * 24 for all its accounts together, min 4.
 */
describe("budget service: a venue's per-IP limit through rebuilds and registry changes", () => {
  let redis: PrivateRedis;
  let db: TestDatabase;
  let nc: NatsConnection;
  let service: BudgetService | undefined;
  let client: BudgetClient;
  let trades: TradeTable;
  let desk: TradeDesk;
  let ledger: ShareLedger;
  let stopLedger: () => void;
  /** The per-IP limit the ledger holds the venue to (a lowered limit is checked against the old one). */
  let ledgerIpLimit: number | null = IP_LIMIT;
  const ns = testNamespace();

  const start = async (ipLimit: number | null): Promise<void> => {
    const settings = loadBudgetSettings({
      DATABASE_URL: db.url,
      NATS_PREFIX: ns.natsPrefix,
      REDIS_URL: redis.url,
      REDIS_PREFIX: ns.redisPrefix,
      LOG_LEVEL: 'silent',
      // Sweeps (and their republish of every share) run between the spec's steps.
      BUDGET_SWEEP_INTERVAL_MS: '200',
    });
    service = await startBudgetService(settings, { venues: ipLimitedVenues(ipLimit) });
  };

  const restart = async (ipLimit: number | null): Promise<void> => {
    await service?.close();
    service = undefined;
    await start(ipLimit);
  };

  const sharesOf = async (accounts: BudgetAccount[]) =>
    Promise.all(
      accounts.map(async (a) => {
        const state = await client.account(a);
        return { share: state.share, holders: state.holders.length, venue: state.venue_holders };
      }),
    );

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    db = await createTestDatabase();
    trades = await TradeTable.open(db.url);
    nc = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'budget-venue-robustness-spec' });
    client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 3_000 });
    desk = new TradeDesk(client, trades);
    const limits = ipLimitedVenues();
    ledger = new ShareLedger(
      (a) => limits[a.venue].rateLimitPerS,
      (venue) => (venue === 'hyperliquid' ? ledgerIpLimit : limits[venue].ipRateLimitPerS),
    );
    stopLedger = client.onAnyChange(ledger.onChange);
    await nc.flush();
    await start(IP_LIMIT);
  });

  afterAll(async () => {
    stopLedger?.();
    client?.close();
    await service?.close();
    await nc?.drain();
    await trades?.close();
    await db?.drop();
    await redis?.stop();
  });

  afterEach(async () => {
    await desk.endAll();
    expect(ledger.takeViolations()).toEqual([]);
  });

  it('rebuilds after FLUSHALL with the same shares, hedge holders counted', async () => {
    const [first, second, third] = [1, 2, 3].map(() => account('hyperliquid'));
    const held = await desk.create(first!, account('aster'));
    await desk.create(first!, account('aster'));
    const leaving = await desk.create(second!, account('aster'));
    await desk.create(account('paradex'), third!); // a hedge holder
    const accounts = [first!, second!, third!];
    const before = await sharesOf(accounts);
    expect(before).toEqual([
      { share: 6, holders: 2, venue: 4 }, // min(20 / 2, 24 / 4)
      { share: 6, holders: 1, venue: 4 },
      { share: 6, holders: 1, venue: 4 },
    ]);
    const version = (await client.account(first!)).version;

    const admin = new Redis(redis.url);
    await admin.flushall();
    await admin.quit();

    expect(await sharesOf(accounts)).toEqual(before);
    expect((await client.account(first!)).version).toBeGreaterThan(version);
    expect((await client.get(held.tradeId))?.rateBudget).toBe(6);

    // The rebuilt venue count holds: a release after it grows the others.
    await desk.end(leaving.tradeId);
    expect(await sharesOf([first!, third!])).toEqual([
      { share: 8, holders: 2, venue: 3 },
      { share: 8, holders: 1, venue: 3 },
    ]);
  });

  it("re-divides the venue's accounts on the sweep when its per-IP limit changes in the registry", async () => {
    const [first, second] = [1, 2].map(() => account('hyperliquid'));
    const held = await desk.create(first!, account('aster'));
    await desk.create(first!, account('aster'));
    const alone = await desk.create(second!, account('aster'));
    expect(await sharesOf([first!, second!])).toEqual([
      { share: 8, holders: 2, venue: 3 },
      { share: 8, holders: 1, venue: 3 },
    ]);

    // Lowered to 12: every account shrinks to floor(12 / 3) = 4 on the boot sweep.
    await restart(12);
    await eventually(async () => expect((await client.get(held.tradeId))?.rateBudget).toBe(4));
    expect((await client.get(alone.tradeId))?.rateBudget).toBe(4);
    expect(ledger.received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ trade_id: alone.tradeId, share: 4, cause: 'resized' }),
      ]),
    );
    await eventually(async () => expect((await trades.budgets(held.tradeId)).rate_budget).toBe(4));

    // No per-IP limit any more: each account's own term (20 / 2 and 20 / 1).
    ledgerIpLimit = null;
    await restart(null);
    await eventually(async () => expect((await client.get(held.tradeId))?.rateBudget).toBe(10));
    expect((await client.get(alone.tradeId))?.rateBudget).toBe(20);
    expect((await client.account(first!)).venue_limit).toBeNull();
  });
});
