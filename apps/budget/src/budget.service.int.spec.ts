import { randomUUID } from 'node:crypto';
import {
  BudgetClient,
  BudgetRefusedError,
  BudgetUnavailableError,
  budgetSharesWildcard,
  TokenBucket,
  applyToBuckets,
  type TradeBudget,
} from '@sts/budget-client';
import {
  BUDGET_RESERVE,
  BUDGET_RESERVE_RESULT,
  budgetReserveSubject,
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseBudgetReserveResult,
  type BudgetAccount,
} from '@sts/contracts';
import type { VenueRegistry } from '@sts/domain';
import { connectNats, isAppError, loadVenueRegistry, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account, eventually, TradeTable } from '../test/budget-fixtures';
import { ShareLedger } from '../test/share-ledger';
import { startBudgetService, type BudgetService } from './bootstrap';
import { BudgetMetrics } from './budget.metrics';
import { loadBudgetSettings } from './config/budget.settings';

// Explicit terms, so the spec does not move when venues.json is tuned.
const VENUE_ENV = {
  VENUE_PARADEX_RATE_LIMIT_PER_S: '30',
  VENUE_PARADEX_MIN_TRADE_BUDGET: '8',
  VENUE_PARADEX_SHARED_ACCOUNT_LIMIT: 'false',
  VENUE_ASTER_RATE_LIMIT_PER_S: '20',
  VENUE_ASTER_MIN_TRADE_BUDGET: '2',
  VENUE_ASTER_SHARED_ACCOUNT_LIMIT: 'false',
  VENUE_EXTENDED_RATE_LIMIT_PER_S: '16',
  VENUE_EXTENDED_MIN_TRADE_BUDGET: '2',
  VENUE_EXTENDED_SHARED_ACCOUNT_LIMIT: 'false',
  VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '20',
  VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '2',
  VENUE_HYPERLIQUID_SHARED_ACCOUNT_LIMIT: 'true',
  VENUE_LIGHTER_RATE_LIMIT_PER_S: '40',
  VENUE_LIGHTER_MIN_TRADE_BUDGET: '4',
  VENUE_LIGHTER_SHARED_ACCOUNT_LIMIT: 'true',
};

describe('budget service (real Redis, NATS and Postgres)', () => {
  let db: TestDatabase;
  let nc: NatsConnection;
  let service: BudgetService;
  let client: BudgetClient;
  let trades: TradeTable;
  let venues: VenueRegistry;
  let ledger: ShareLedger;
  let stopLedger: () => void;
  const ns = testNamespace();
  const metrics = new BudgetMetrics();
  const counted = async (name: string): Promise<number> =>
    ((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []).reduce(
      (sum, value) => sum + value.value,
      0,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    venues = loadVenueRegistry(VENUE_ENV);
    const settings = loadBudgetSettings({
      DATABASE_URL: db.url,
      NATS_PREFIX: ns.natsPrefix,
      REDIS_PREFIX: ns.redisPrefix,
      LOG_LEVEL: 'silent',
      BUDGET_SWEEP_INTERVAL_MS: '60000',
    });
    service = await startBudgetService(settings, { venues, metrics });
    nc = await connectNats({ url: settings.natsUrl, name: 'budget-spec' });
    client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 3_000 });
    trades = await TradeTable.open(db.url);
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

  afterEach(() => {
    // Reset so one over-allocation fails the test that caused it, not every later one.
    const violations = ledger?.takeViolations() ?? [];
    expect(violations).toEqual([]);
  });

  /** The gateway's create: reserve first, then insert the row with the grant. */
  async function createTrade(maker: BudgetAccount, hedge: BudgetAccount): Promise<TradeBudget> {
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
  }

  it('divides one account among 1, 2 and 3 trades and grows the shares when one finishes', async () => {
    const maker = account('paradex');
    const hedge = account('aster');
    const first = await createTrade(maker, hedge);
    expect(first.rateBudget).toBe(30);
    expect(first.hedgeRateBudget).toBeNull();

    const second = await createTrade(maker, hedge);
    expect(second.rateBudget).toBe(15);
    const third = await createTrade(maker, hedge);
    expect(third.rateBudget).toBe(10);

    const state = await client.account(maker);
    expect(state.limit).toBe(30);
    expect(state.share).toBe(10);
    expect(state.holders.map((h) => h.trade_id).sort()).toEqual(
      [first.tradeId, second.tradeId, third.tradeId].sort(),
    );
    await eventually(async () => {
      for (const grant of [first, second, third]) {
        expect(await trades.budgets(grant.tradeId)).toEqual({
          rate_budget: 10,
          hedge_rate_budget: null,
        });
      }
    });
    expect(ledger.shareOf(first.tradeId)).toBe(10);

    // The second trade completes: its worker releases, the others grow to 15.
    await trades.setStatus(second.tradeId, 'completed');
    expect(await client.release(second.tradeId, 'completed')).toBe(true);
    expect((await client.get(first.tradeId))?.rateBudget).toBe(15);
    expect(await client.get(second.tradeId)).toBeNull();
    await eventually(async () => {
      expect(ledger.shareOf(first.tradeId)).toBe(15);
      expect(ledger.shareOf(third.tradeId)).toBe(15);
      expect(ledger.shareOf(second.tradeId)).toBe(0);
      expect((await trades.budgets(first.tradeId)).rate_budget).toBe(15);
      expect((await trades.budgets(third.tradeId)).rate_budget).toBe(15);
    });
    // A terminal trade's row keeps the budget it ended with.
    expect((await trades.budgets(second.tradeId)).rate_budget).toBe(10);
    // Releasing again is a no-op.
    expect(await client.release(second.tradeId, 'completed')).toBe(false);
  });

  it('refuses with rate_budget_exhausted when a share would fall under the minimum, changing nothing', async () => {
    const maker = account('paradex');
    const hedge = account('extended');
    for (let i = 0; i < 3; i += 1) {
      await createTrade(maker, hedge);
    }
    const before = await client.account(maker);
    expect(before.share).toBe(10);

    // floor(30 / 4) = 7 < min_trade_budget 8
    const refused = client.reserve({ tradeId: randomUUID(), maker, hedge });
    await expect(refused).rejects.toBeInstanceOf(BudgetRefusedError);
    const error = await refused.catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('rate_budget_exhausted');
    expect(isAppError(error) && error.details).toEqual({
      exchange: 'paradex',
      leg: 'maker',
      limit_per_s: 30,
      holders: 3,
      min_trade_budget: 8,
    });
    expect(await client.account(maker)).toEqual(before);
  });

  it('holds a hedge budget only where the hedge venue shares its account limit', async () => {
    const wallet = account('hyperliquid').wallet;
    const hyperliquid = { venue: 'hyperliquid' as const, wallet };

    // Hedging on hyperliquid spends its per-address limit: the trade holds both.
    const hedgedThere = await createTrade(account('paradex'), hyperliquid);
    expect(hedgedThere.rateBudget).toBe(30);
    expect(hedgedThere.hedgeRateBudget).toBe(20);

    // A maker trade on the same hyperliquid address shares the same limit.
    const makerThere = await createTrade(hyperliquid, account('aster'));
    expect(makerThere.rateBudget).toBe(10);
    expect(makerThere.hedgeRateBudget).toBeNull();
    expect((await client.get(hedgedThere.tradeId))?.hedgeRateBudget).toBe(10);
    await eventually(async () =>
      expect(await trades.budgets(hedgedThere.tradeId)).toEqual({
        rate_budget: 30,
        hedge_rate_budget: 10,
      }),
    );
    const state = await client.account(hyperliquid);
    expect(state.holders).toEqual(
      expect.arrayContaining([
        { trade_id: hedgedThere.tradeId, role: 'hedge' },
        { trade_id: makerThere.tradeId, role: 'maker' },
      ]),
    );

    // Hedging on paradex (not shared) holds no hedge budget there.
    const paradex = account('paradex');
    await createTrade(account('lighter'), paradex);
    expect((await client.account(paradex)).holders).toEqual([]);
  });

  it('is all or nothing across the maker and hedge accounts', async () => {
    const lighter = account('lighter'); // 40/s, min 4: room for 10 holders
    for (let i = 0; i < 10; i += 1) {
      await createTrade(lighter, account('paradex'));
    }
    const maker = account('paradex');
    const refused = await client
      .reserve({ tradeId: randomUUID(), maker, hedge: lighter })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BudgetRefusedError);
    expect((refused as BudgetRefusedError).refusal.role).toBe('hedge');
    // The maker account was not touched by the refused reserve.
    expect((await client.account(maker)).holders).toEqual([]);
    expect((await client.account(lighter)).holders).toHaveLength(10);
  });

  it('never over-allocates under 30 concurrent reserves on one account', async () => {
    const extended = account('extended'); // 16/s, min 2: at most 8 holders
    const ids = Array.from({ length: 30 }, () => randomUUID());
    const checks: string[] = [];
    const results = await Promise.allSettled(
      ids.map(async (tradeId) => {
        const grant = await client.reserve({ tradeId, maker: extended, hedge: account('aster') });
        const state = await client.account(extended);
        if (state.share * state.holders.length > state.limit) {
          checks.push(`${state.holders.length} x ${state.share} > ${state.limit}`);
        }
        return grant;
      }),
    );
    const granted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter(
      (r) => r.status === 'rejected' && r.reason instanceof BudgetRefusedError,
    );
    expect(granted).toHaveLength(8);
    expect(refused).toHaveLength(22);
    expect(checks).toEqual([]);
    const state = await client.account(extended);
    expect(state.holders).toHaveLength(8);
    expect(state.share).toBe(2);
    await eventually(() => expect(ledger.total(extended)).toBe(16));

    // And back down: every holder releases concurrently.
    const holders = state.holders.map((h) => h.trade_id);
    await Promise.all(holders.map((tradeId) => client.release(tradeId, 'canceled')));
    const empty = await client.account(extended);
    expect(empty.holders).toEqual([]);
    expect(empty.share).toBe(0);
    await eventually(() => expect(ledger.total(extended)).toBe(0));
  });

  it('answers a retried reserve with the grant already held, never a second holder', async () => {
    const maker = account('aster');
    const hedge = account('hyperliquid');
    const tradeId = randomUUID();
    const grants = await Promise.all([
      client.reserve({ tradeId, maker, hedge }),
      client.reserve({ tradeId, maker, hedge }),
    ]);
    expect(grants[0].rateBudget).toBe(20);
    expect(grants[1]).toEqual(grants[0]);
    expect((await client.account(maker)).holders).toHaveLength(1);
    expect((await client.account(hedge)).holders).toHaveLength(1);

    // The same trade id on other accounts is a conflict, not a second grant.
    const conflict = await client
      .reserve({ tradeId, maker: account('aster'), hedge })
      .catch((e: unknown) => e);
    expect(isAppError(conflict) && conflict.code).toBe('conflict');
  });

  it('pushes every change to a watching worker, whose token bucket applies it at once', async () => {
    const maker = account('lighter');
    const hedge = account('hyperliquid');
    const first = await createTrade(maker, hedge);
    const makerBucket = new TokenBucket(1);
    const hedgeBucket = new TokenBucket(1);
    const watch = client.watchTrade(
      first.tradeId,
      applyToBuckets({ maker: makerBucket, hedge: hedgeBucket }),
    );
    try {
      await eventually(() => {
        expect(makerBucket.rate).toBe(40);
        expect(hedgeBucket.rate).toBe(20);
      });
      const second = await createTrade(maker, hedge);
      await eventually(() => {
        expect(makerBucket.rate).toBe(20);
        expect(hedgeBucket.rate).toBe(10);
      });
      await client.release(second.tradeId, 'canceled');
      await eventually(() => {
        expect(makerBucket.rate).toBe(40);
        expect(hedgeBucket.rate).toBe(20);
      });
      expect(watch.current('maker')).toBe(40);

      // Messages name only who joined and left: once its trade has left, a
      // watch applies no later change of the account to it.
      const third = await createTrade(maker, hedge);
      await eventually(() => expect(makerBucket.rate).toBe(20));
      await client.release(first.tradeId, 'canceled');
      await eventually(() => expect(watch.current('maker')).toBe(0));
      await client.release(third.tradeId, 'canceled');
      await createTrade(maker, hedge);
      await client.account(maker); // the service publishes before it answers
      await nc.flush();
      expect(watch.current('maker')).toBe(0);
      expect(watch.current('hedge')).toBe(0);
    } finally {
      watch.close();
      makerBucket.close();
      hedgeBucket.close();
    }
  });

  it('announces a change with one message per account, whatever its number of holders', async () => {
    const maker = account('lighter'); // 40/s, min 4: room for 10 holders
    const hedge = account('aster'); // not shared: no hedge holder
    const held: TradeBudget[] = [];
    for (let i = 0; i < 5; i += 1) {
      held.push(await createTrade(maker, hedge));
    }
    const changeSubjects: string[] = [];
    const payloads: Array<{ holder_count: number; joined: unknown[]; left: unknown[] }> = [];
    const tap = nc.subscribe(`${ns.natsPrefix}.budget.>`, {
      callback: (_error, msg) => {
        const kind = msg.subject.slice(ns.natsPrefix.length + 1).split('.')[1];
        if (kind !== 'reserve' && kind !== 'release' && kind !== 'get' && kind !== 'account') {
          changeSubjects.push(msg.subject);
          payloads.push(JSON.parse(new TextDecoder().decode(msg.data)).payload);
        }
      },
    });
    try {
      await nc.flush();
      const sixth = await createTrade(maker, hedge);
      await client.release(held[0]!.tradeId, 'canceled');
      // A probe after both: the service publishes before it answers, so once the
      // probe is back every change message of the two operations has arrived.
      await client.account(maker);
      await nc.flush();
      expect(changeSubjects).toHaveLength(2);
      // Each names only the trade that moved, and how many hold the account after it.
      expect(payloads).toEqual([
        expect.objectContaining({
          holder_count: 6,
          joined: [{ trade_id: sixth.tradeId, role: 'maker' }],
          left: [],
        }),
        expect.objectContaining({
          holder_count: 5,
          joined: [],
          left: [{ trade_id: held[0]!.tradeId, role: 'maker' }],
        }),
      ]);
      // Every watcher still learns its share: the ledger follows each holder.
      await eventually(() => {
        for (const trade of [...held.slice(1), sixth]) {
          expect(ledger.shareOf(trade.tradeId)).toBe(8);
        }
        expect(ledger.shareOf(held[0]!.tradeId)).toBe(0);
        expect(ledger.total(maker)).toBe(40);
      });
    } finally {
      tap.unsubscribe();
    }
  });

  it('answers a batch of reservations each as alone, in one message per account changed', async () => {
    const maker = account('paradex'); // 30/s, min 8: room for 3 holders
    const hedge = account('extended');
    const shared = account('hyperliquid'); // a hedge venue that shares its limit
    const ids = Array.from({ length: 4 }, () => randomUUID());
    const changes: Array<{
      subject: string;
      joined: string[];
      holderCount: number;
      version: number;
    }> = [];
    const tap = nc.subscribe(budgetSharesWildcard(ns.natsPrefix), {
      callback: (_error, msg) => {
        const { payload } = JSON.parse(new TextDecoder().decode(msg.data));
        changes.push({
          subject: msg.subject,
          joined: payload.joined.map((h: { trade_id: string }) => h.trade_id),
          holderCount: payload.holder_count,
          version: payload.version,
        });
      },
    });
    const granted = await counted('sts_budget_reservations_total');
    const refused = await counted('sts_budget_refusals_total');
    try {
      await nc.flush();
      const answers = await client.reserveBatch([
        { tradeId: ids[0]!, maker, hedge },
        { tradeId: ids[1]!, maker, hedge: shared },
        { tradeId: ids[2]!, maker, hedge },
        // floor(30 / 4) = 7 < 8: refused, as it would be alone, changing nothing.
        { tradeId: ids[3]!, maker, hedge },
      ]);
      expect(answers.slice(0, 3).map((a) => (a as TradeBudget).rateBudget)).toEqual([30, 15, 10]);
      expect((answers[1] as TradeBudget).hedgeRateBudget).toEqual(expect.any(Number));
      expect(answers[3]).toBeInstanceOf(BudgetRefusedError);
      // Counted per reservation, as alone.
      expect(await counted('sts_budget_reservations_total')).toBe(granted + 3);
      expect(await counted('sts_budget_refusals_total')).toBe(refused + 1);
      const state = await client.account(maker);
      expect(state.holders.map((h) => h.trade_id)).toEqual(ids.slice(0, 3));
      // A retried batch answers the grants held, never a second holder.
      const again = await client.reserveBatch([{ tradeId: ids[0]!, maker, hedge }]);
      expect((again[0] as TradeBudget).rateBudget).toBe(10);
      expect((await client.account(maker)).holders).toHaveLength(3);

      await client.account(maker); // the service publishes before it answers
      await nc.flush();
      // One message for the maker account, naming the batch's three newcomers in join order.
      const makerMessages = changes.filter((c) => c.joined.includes(ids[0]!));
      expect(makerMessages).toHaveLength(1);
      expect(makerMessages[0]!.joined).toEqual(ids.slice(0, 3));
      expect(makerMessages[0]!.holderCount).toBe(3);
      expect(makerMessages[0]!.version).toBe(state.version);
      expect(changes.filter((c) => c.joined.includes(ids[1]!))).toHaveLength(2); // maker and hedge
    } finally {
      tap.unsubscribe();
    }
  });

  it('refuses a batch with one trade twice, or none, as invalid_request', async () => {
    const maker = account('paradex');
    const hedge = account('extended');
    const id = randomUUID();
    for (const reservations of [
      [
        { tradeId: id, maker, hedge },
        { tradeId: id, maker, hedge },
      ],
      [],
    ]) {
      const refused = await client.reserveBatch(reservations).catch((e: unknown) => e);
      expect(isAppError(refused) && refused.code).toBe('invalid_request');
    }
    expect((await client.account(maker)).holders).toEqual([]);
  });

  it('answers an invalid request with invalid_request and carries the correlation id', async () => {
    const request = envelope(
      BUDGET_RESERVE,
      { trade_id: 'not-a-uuid', maker: account('aster'), hedge: account('paradex') },
      { correlationId: 'corr-1' },
    );
    const reply = await nc.request(budgetReserveSubject(ns.natsPrefix), encodeEnvelope(request), {
      timeout: 3_000,
    });
    const decoded = decodeEnvelope(reply.data, BUDGET_RESERVE_RESULT, parseBudgetReserveResult);
    expect(decoded.correlation_id).toBe('corr-1');
    expect(decoded.causation_id).toBe(request.message_id);
    expect(decoded.payload).toMatchObject({ outcome: 'failed', code: 'invalid_request' });

    const badWallet = await client
      .reserve({
        tradeId: randomUUID(),
        maker: { venue: 'aster', wallet: 'has space' },
        hedge: account('paradex'),
      })
      .catch((e: unknown) => e);
    expect(isAppError(badWallet) && badWallet.code).toBe('invalid_request');
  });

  it('fails fast with budget_unavailable when no budget service answers', async () => {
    const orphanClient = new BudgetClient(nc, {
      natsPrefix: testNamespace().natsPrefix,
      timeoutMs: 500,
    });
    const error = await orphanClient
      .reserve({ tradeId: randomUUID(), maker: account('aster'), hedge: account('paradex') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetUnavailableError);
    expect((error as BudgetUnavailableError).code).toBe('budget_unavailable');
  });
});
