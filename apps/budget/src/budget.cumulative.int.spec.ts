import { randomUUID } from 'node:crypto';
import { BudgetClient } from '@sts/budget-client';
import { connectNats, loadVenueRegistry, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account } from '../test/budget-fixtures';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

// Explicit terms, so the spec does not move when venues.json is tuned.
const VENUE_ENV = {
  VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '20',
  VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '2',
  VENUE_HYPERLIQUID_SHARED_ACCOUNT_LIMIT: 'true',
  VENUE_LIGHTER_RATE_LIMIT_PER_S: '40',
  VENUE_LIGHTER_MIN_TRADE_BUDGET: '2',
  VENUE_LIGHTER_SHARED_ACCOUNT_LIMIT: 'true',
  VENUE_ASTER_RATE_LIMIT_PER_S: '20',
  VENUE_ASTER_MIN_TRADE_BUDGET: '2',
  VENUE_ASTER_SHARED_ACCOUNT_LIMIT: 'false',
};

/**
 * budget.cumulative over NATS (issue 54): the workers' reports of an
 * account's cumulative budget (Hyperliquid's address budget, Lighter's volume
 * quota) kept in Redis, the newest reading of all of them with the spends
 * reported since, answered with the account's request limit and the trades
 * that hedge there.
 */
describe('budget service: cumulative budgets (real Redis and NATS)', () => {
  let db: TestDatabase;
  let nc: NatsConnection;
  let service: BudgetService;
  let client: BudgetClient;
  const ns = testNamespace();

  beforeAll(async () => {
    db = await createTestDatabase();
    const settings = loadBudgetSettings({
      DATABASE_URL: db.url,
      NATS_PREFIX: ns.natsPrefix,
      REDIS_PREFIX: ns.redisPrefix,
      LOG_LEVEL: 'silent',
      BUDGET_SWEEP_INTERVAL_MS: '60000',
    });
    service = await startBudgetService(settings, { venues: loadVenueRegistry(VENUE_ENV) });
    nc = await connectNats({ url: settings.natsUrl, name: 'budget-cumulative-spec' });
    client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 3_000 });
  });

  afterAll(async () => {
    client?.close();
    await service?.close();
    await nc?.drain();
    await db?.drop();
  });

  it('knows nothing of an account until a worker reports a reading; spends alone are not one', async () => {
    const lighter = account('lighter');
    expect(await client.cumulative({ ...lighter, reading: null, spent: 3 })).toBeNull();
  });

  it('keeps the newest reading of all workers and the spends reported after it', async () => {
    const hl = account('hyperliquid');
    const report = (reading: { left: number; read_at_ms: number } | null, spent = 0) =>
      client.cumulative({ ...hl, reading, spent });
    expect(await report({ left: 500, read_at_ms: 1_000 })).toEqual({
      left: 500,
      read_at_ms: 1_000,
      spent: 0,
      spend_per_s: 20,
      hedge_holders: 0,
    });
    // Another worker's spends add up.
    expect(await report(null, 7)).toMatchObject({ left: 500, spent: 7 });
    expect(await report(null, 5)).toMatchObject({ left: 500, spent: 12 });
    // An older reading (a slower worker's) changes nothing; its spends still count.
    expect(await report({ left: 900, read_at_ms: 900 }, 1)).toMatchObject({
      left: 500,
      read_at_ms: 1_000,
      spent: 13,
    });
    // A newer one replaces it and clears what was spent before; spends sent with it count after.
    expect(await report({ left: 480, read_at_ms: 2_000 }, 2)).toMatchObject({
      left: 480,
      read_at_ms: 2_000,
      spent: 2,
    });
    // Past the cap (Hyperliquid counts on): negative.
    expect(await report({ left: -3, read_at_ms: 3_000 })).toMatchObject({ left: -3, spent: 0 });
  });

  it('counts the trades that hedge on the account, not those that make there', async () => {
    const lighter = account('lighter');
    await client.cumulative({ ...lighter, reading: { left: 40, read_at_ms: 1 }, spent: 0 });
    // Two trades hedge on the Lighter account, one makes there (its hedge elsewhere).
    for (let i = 0; i < 2; i += 1) {
      await client.reserve({ tradeId: randomUUID(), maker: account('aster'), hedge: lighter });
    }
    await client.reserve({ tradeId: randomUUID(), maker: lighter, hedge: account('aster') });
    expect(await client.cumulative({ ...lighter, reading: null, spent: 0 })).toEqual({
      left: 40,
      read_at_ms: 1,
      spent: 0,
      spend_per_s: 40,
      hedge_holders: 2,
    });
  });

  it('a report for a bad account is refused as invalid', async () => {
    await expect(
      client.cumulative({ venue: 'lighter', wallet: 'not a wallet', reading: null, spent: 0 }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
