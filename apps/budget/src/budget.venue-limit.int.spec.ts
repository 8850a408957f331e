import { randomUUID } from 'node:crypto';
import {
  BudgetClient,
  BudgetRefusedError,
  TokenBucket,
  applyToBuckets,
  type TradeBudget,
} from '@sts/budget-client';
import type { VenueRegistry } from '@sts/domain';
import { connectNats, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account, eventually, TradeTable } from '../test/budget-fixtures';
import { ShareLedger } from '../test/share-ledger';
import { IP_LIMIT, ipLimitedVenues, messagesOf, TradeDesk } from '../test/ip-limited-venues';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

/**
 * Hyperliquid live: 20 tokens/s per account, 24 for all its accounts together
 * (its per-IP limit), min 4. Every test ends its trades, so each starts with
 * nobody holding the venue.
 */
describe("budget service: a venue's per-IP limit across its accounts (real Redis, NATS and Postgres)", () => {
  let db: TestDatabase;
  let nc: NatsConnection;
  let service: BudgetService;
  let client: BudgetClient;
  let trades: TradeTable;
  let desk: TradeDesk;
  let venues: VenueRegistry;
  let ledger: ShareLedger;
  let stopLedger: () => void;
  const ns = testNamespace();
  const messages = (operation: () => Promise<unknown>) =>
    messagesOf(ledger, client, nc, account('hyperliquid'), operation);

  beforeAll(async () => {
    db = await createTestDatabase();
    venues = ipLimitedVenues();
    const settings = loadBudgetSettings({
      DATABASE_URL: db.url,
      NATS_PREFIX: ns.natsPrefix,
      REDIS_PREFIX: ns.redisPrefix,
      LOG_LEVEL: 'silent',
      BUDGET_SWEEP_INTERVAL_MS: '60000',
    });
    service = await startBudgetService(settings, { venues });
    nc = await connectNats({ url: settings.natsUrl, name: 'budget-venue-limit-spec' });
    client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 3_000 });
    trades = await TradeTable.open(db.url);
    desk = new TradeDesk(client, trades);
    ledger = new ShareLedger(
      (a) => venues[a.venue].rateLimitPerS,
      (venue) => venues[venue].ipRateLimitPerS,
    );
    stopLedger = client.onAnyChange(ledger.onChange);
    await nc.flush();
  });

  afterAll(async () => {
    stopLedger?.();
    client?.close();
    await service?.close();
    await nc?.drain();
    await trades?.close();
    await db?.drop();
  });

  afterEach(async () => {
    await desk.endAll();
    const violations = ledger.takeViolations();
    expect(violations).toEqual([]);
    expect((await client.account(account('hyperliquid'))).venue_holders).toBe(0);
  });

  it("shrinks the first wallet's share when a second wallet joins the venue, and publishes it", async () => {
    const first = account('hyperliquid');
    const second = account('hyperliquid');
    const held = await desk.create(first, account('aster'));
    expect(held.rateBudget).toBe(20); // min(20 / 1, 24 / 1)
    const bucket = new TokenBucket(1);
    const watch = client.watchTrade(held.tradeId, applyToBuckets({ maker: bucket }));
    try {
      await eventually(() => expect(bucket.rate).toBe(20));
      expect((await desk.create(first, account('aster'))).rateBudget).toBe(10); // min(20 / 2, 24 / 2)

      let joining: TradeBudget | undefined;
      const published = await messages(async () => {
        joining = await desk.create(second, account('aster'));
      });
      expect(joining!.rateBudget).toBe(8); // min(20 / 1, 24 / 3)
      // The other account shrinks first, at the joiner's version, naming nobody.
      expect(published).toEqual([
        expect.objectContaining({
          wallet: first.wallet,
          share: 8,
          holder_count: 2,
          cause: 'venue_shared',
          version: joining!.maker.version,
          joined: [],
          left: [],
        }),
        expect.objectContaining({ wallet: second.wallet, share: 8, cause: 'reserved' }),
      ]);
      await eventually(() => expect(bucket.rate).toBe(8));
      expect(await client.account(first)).toEqual(
        expect.objectContaining({ share: 8, limit: 20, venue_limit: IP_LIMIT, venue_holders: 3 }),
      );
      await eventually(async () => {
        expect((await trades.budgets(held.tradeId)).rate_budget).toBe(8);
        expect(ledger.venueTotal('hyperliquid')).toBe(24);
      });
    } finally {
      watch.close();
      bucket.close();
    }
  });

  it('refuses a reserve that would take the venue share under the minimum, changing nothing', async () => {
    const [first, second, third] = [1, 2, 3].map(() => account('hyperliquid'));
    for (const wallet of [first, first, second, second, second, second]) {
      await desk.create(wallet!, account('aster'));
    }
    const before = await Promise.all([first, second, third].map((a) => client.account(a!)));
    expect(before.map((state) => state.share)).toEqual([4, 4, 0]); // 24 / 6

    // floor(24 / 7) = 3 < 4, though the third account alone would give 20.
    const published = await messages(async () => {
      const refused = await client
        .reserve({ tradeId: randomUUID(), maker: third!, hedge: account('aster') })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BudgetRefusedError);
      expect((refused as BudgetRefusedError).refusal).toEqual(
        expect.objectContaining({ role: 'maker', wallet: third!.wallet, limit: 24, holders: 6 }),
      );
      expect((refused as BudgetRefusedError).refusal.limit_scope).toBe('venue');
      expect((refused as BudgetRefusedError).code).toBe('rate_budget_exhausted');
      // As a hedge too, all or nothing: the maker account stays untouched.
      const maker = account('paradex');
      const asHedge = await client
        .reserve({ tradeId: randomUUID(), maker, hedge: third! })
        .catch((e: unknown) => e);
      expect((asHedge as BudgetRefusedError).refusal.role).toBe('hedge');
      expect((await client.account(maker)).holders).toEqual([]);
    });
    expect(published).toEqual([]);
    const after = await Promise.all([first, second, third].map((a) => client.account(a!)));
    expect(after).toEqual(before);
  });

  it("grows the other accounts' shares when a trade releases", async () => {
    const first = account('hyperliquid');
    const second = account('hyperliquid');
    const held = await desk.create(first, account('aster'));
    const leaving = [await desk.create(second, account('aster'))];
    leaving.push(await desk.create(second, account('aster')));
    expect((await client.get(held.tradeId))?.rateBudget).toBe(8); // 24 / 3

    const released = await messages(() => desk.end(leaving[0]!.tradeId));
    expect(released).toEqual([
      expect.objectContaining({ wallet: second.wallet, share: 12, cause: 'released' }),
      expect.objectContaining({ wallet: first.wallet, share: 12, cause: 'venue_shared' }),
    ]);
    // The last holder of the second account leaves: its 0 goes out before the growth.
    const emptied = await messages(() => desk.end(leaving[1]!.tradeId));
    expect(emptied.map((m) => [m.wallet, m.share, m.cause])).toEqual([
      [second.wallet, 0, 'released'],
      [first.wallet, 20, 'venue_shared'], // min(20 / 1, 24 / 1)
    ]);
    await eventually(async () => expect((await trades.budgets(held.tradeId)).rate_budget).toBe(20));
  });

  it('answers a batch each as alone, counting hedge holders, in one message per account', async () => {
    const [early, first, second, third] = [1, 2, 3, 4].map(() => account('hyperliquid'));
    await desk.create(early!, account('aster'));
    const paradex = account('paradex');
    const plan = [
      { maker: first!, hedge: account('aster') }, // 2 on the venue: 12
      { maker: second!, hedge: account('aster') }, // 3: 8
      { maker: paradex, hedge: third! }, // a hedge holder, 4: 6
      { maker: first!, hedge: account('aster') }, // 5: 4
      { maker: second!, hedge: account('aster') }, // 6: 4
      { maker: third!, hedge: account('aster') }, // 7: 3 < 4, refused
    ].map((entry) => ({ ...entry, tradeId: randomUUID() }));
    let answers: Array<TradeBudget | Error> = [];
    const published = await messages(async () => {
      answers = await client.reserveBatch(plan);
    });
    const grants = answers.slice(0, 5) as TradeBudget[];
    expect(grants.map((g) => g.rateBudget)).toEqual([12, 8, 30, 4, 4]);
    expect(grants[2]!.hedgeRateBudget).toBe(6);
    expect((answers[5] as BudgetRefusedError).refusal.limit_scope).toBe('venue');
    for (const [i, grant] of grants.entries()) {
      await desk.insertRow(grant, plan[i]!.maker, plan[i]!.hedge);
    }
    const byWallet = new Map(published.map((m) => [m.wallet, m]));
    expect(published).toHaveLength(5);
    // The early account only ever shrank for the venue: published first, naming nobody.
    expect(published[0]).toEqual(
      expect.objectContaining({
        wallet: early!.wallet,
        share: 4,
        cause: 'venue_shared',
        joined: [],
      }),
    );
    expect(byWallet.get(first!.wallet)).toEqual(
      expect.objectContaining({ share: 4, holder_count: 2, cause: 'reserved' }),
    );
    expect(byWallet.get(third!.wallet)?.joined).toEqual([
      { trade_id: plan[2]!.tradeId, role: 'hedge' },
    ]);
    expect((await client.account(third!)).venue_holders).toBe(6);
  });

  it('never over-allocates the venue under 30 concurrent reserves across four accounts', async () => {
    const wallets = [1, 2, 3, 4].map(() => account('hyperliquid'));
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        desk.create(wallets[i % wallets.length]!, account('aster')),
      ),
    );
    const granted = results.filter((r) => r.status === 'fulfilled');
    expect(granted).toHaveLength(6); // floor(24 / 6) = 4 = min
    const states = await Promise.all(wallets.map((w) => client.account(w)));
    const total = states.reduce((sum, s) => sum + s.share * s.holders.length, 0);
    expect(total).toBe(24);
    expect(states.every((s) => s.venue_holders === 6)).toBe(true);
    await eventually(() => expect(ledger.venueTotal('hyperliquid')).toBe(24));

    // And back down, concurrently.
    const ids = (granted as Array<PromiseFulfilledResult<TradeBudget>>).map((r) => r.value.tradeId);
    await Promise.all(ids.map((tradeId) => desk.end(tradeId)));
    await eventually(() => expect(ledger.venueTotal('hyperliquid')).toBe(0));
  });
});
