import Redis from 'ioredis';
import {
  applyToBuckets,
  BudgetClient,
  BudgetRefusedError,
  TokenBucket,
  type TradeBudget,
} from '@sts/budget-client';
import type { BudgetAccount } from '@sts/contracts';
import type { VenueRegistry } from '@sts/domain';
import { connectNats, loadVenueRegistry, type NatsConnection } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { account, eventually, randomWallet, TradeTable } from '../test/budget-fixtures';
import { messagesOf, TradeDesk } from '../test/ip-limited-venues';
import { PrivateRedis } from '../test/private-redis';
import { ShareLedger } from '../test/share-ledger';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

/**
 * Hyperliquid live on venues.json's own limits (per account and per IP: 18
 * tokens/s an IP, 1,080 a minute) and a minimum pace of 36 a minute; every
 * trade makes on a wallet of its own, so only the per-IP term binds: thirty
 * trades an egress (nine at the registry's default minimum, 2 a second).
 */
const VENUES: VenueRegistry = loadVenueRegistry({
  VENUE_HYPERLIQUID_MODE: 'live',
  VENUE_HYPERLIQUID_MIN_IP_SHARE_PER_MIN: '36',
  VENUE_ASTER_SHARED_ACCOUNT_LIMIT: 'false',
});
const HL = VENUES.hyperliquid;
const IP_LIMIT = HL.ipRateLimitPerS!;
const PER_EGRESS = Math.floor((IP_LIMIT * 60) / HL.minIpSharePerMin);

/** A holder's pace: its pool's per-IP term a minute, divided. */
const paceOf = (poolHolders: number): number => Math.floor((IP_LIMIT * 60) / poolHolders);

/** A holder's share: its account's term, capped by its pace a second (at least 1). */
const shareOf = (accountHolders: number, poolHolders: number): number =>
  Math.min(
    Math.floor(HL.rateLimitPerS / accountHolders),
    Math.max(1, Math.floor(paceOf(poolHolders) / 60)),
  );

const wallets = (n: number): string[] => Array.from({ length: n }, () => randomWallet());
const hl = (wallet: string): BudgetAccount => ({ venue: 'hyperliquid', wallet });

/** An EGRESS_PLAN of egresses a, b and c, each of `pins` pinned to its egress. */
function planOf(pins: Record<string, string[]>): string {
  const accounts = Object.fromEntries(
    Object.entries(pins).flatMap(([egress, list]) =>
      list.map((wallet) => [`hyperliquid:${wallet}`, egress]),
    ),
  );
  // Documentation addresses: the budget binds nothing and checks no address of its host.
  const egresses = ['a', 'b', 'c'].map((id, index) => ({ id, bind: `198.51.100.${index + 1}` }));
  return JSON.stringify({ egresses, accounts });
}

/** One service on a Redis of the spec's own, with a ledger judging each pool against the per-IP limit. */
class EgressFleet {
  redis!: PrivateRedis;
  db!: TestDatabase;
  nc!: NatsConnection;
  service?: BudgetService;
  client!: BudgetClient;
  trades!: TradeTable;
  desk!: TradeDesk;
  ledger!: ShareLedger;
  private stopLedger?: () => void;
  private readonly ns = testNamespace();
  /** Which egress the ledger counts each wallet in (the plan the service runs). */
  egressOf: (wallet: string) => string = () => 'default';

  async open(): Promise<void> {
    this.redis = await PrivateRedis.start();
    this.db = await createTestDatabase();
    this.trades = await TradeTable.open(this.db.url);
    this.nc = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'budget-egress-spec' });
    this.client = new BudgetClient(this.nc, { natsPrefix: this.ns.natsPrefix, timeoutMs: 3_000 });
    this.desk = new TradeDesk(this.client, this.trades);
    this.ledger = new ShareLedger(
      (a) => VENUES[a.venue].rateLimitPerS,
      (venue) => VENUES[venue].ipRateLimitPerS,
      (a) => `${a.venue}@${a.venue === 'hyperliquid' ? this.egressOf(a.wallet) : 'any'}`,
    );
    this.stopLedger = this.client.onAnyChange(this.ledger.onChange);
    await this.nc.flush();
  }

  /** (Re)starts the service under `plan` (undefined: no EGRESS_PLAN, the default single egress). */
  async start(plan: string | undefined): Promise<void> {
    await this.service?.close();
    this.service = undefined;
    const settings = loadBudgetSettings({
      DATABASE_URL: this.db.url,
      NATS_PREFIX: this.ns.natsPrefix,
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: this.ns.redisPrefix,
      LOG_LEVEL: 'silent',
      BUDGET_SWEEP_INTERVAL_MS: '60000',
      EGRESS_PLAN: plan,
    });
    this.service = await startBudgetService(settings, { venues: VENUES });
  }

  /** Trades made on each wallet in turn, one each, until one is refused. */
  async fill(list: string[]): Promise<{ granted: TradeBudget[]; refusal: BudgetRefusedError }> {
    const granted: TradeBudget[] = [];
    for (const wallet of list) {
      const answer = await this.desk
        .create(hl(wallet), account('aster'))
        .catch((error: unknown) => error);
      if (answer instanceof BudgetRefusedError) {
        return { granted, refusal: answer };
      }
      granted.push(answer as TradeBudget);
    }
    throw new Error(`all ${list.length} trades were granted`);
  }

  messages(operation: () => Promise<unknown>) {
    return messagesOf(this.ledger, this.client, this.nc, account('hyperliquid'), operation);
  }

  async close(): Promise<void> {
    this.stopLedger?.();
    this.client?.close();
    await this.service?.close();
    await this.nc?.drain();
    await this.trades?.close();
    await this.db?.drop();
    await this.redis?.stop();
  }
}

describe('budget service: the per-IP term per egress address (private Redis, real NATS and Postgres)', () => {
  const fleet = new EgressFleet();
  const pins = { a: wallets(PER_EGRESS + 2), b: wallets(PER_EGRESS + 2), c: wallets(2) };
  const moving = { a: wallets(2), b: wallets(1) };
  const egressIn = (plan: Record<string, string[]>) => (wallet: string) =>
    Object.entries(plan).find(([, list]) => list.includes(wallet))?.[0] ?? 'unpinned';

  beforeAll(async () => {
    await fleet.open();
    const plan = { a: [...pins.a, ...moving.a], b: [...pins.b, ...moving.b], c: pins.c };
    fleet.egressOf = egressIn(plan);
    await fleet.start(planOf(plan));
  });

  afterAll(() => fleet.close());

  afterEach(async () => {
    await fleet.desk.endAll();
    expect(fleet.ledger.takeViolations()).toEqual([]);
  });

  it('admits the per-IP term once per egress: twice the trades on two, each refusal naming its egress', async () => {
    expect(PER_EGRESS).toBeGreaterThanOrEqual(27);
    const onA = await fleet.fill(pins.a);
    expect(onA.granted).toHaveLength(PER_EGRESS);
    // Egress a is full; b's accounts are not divided by a's holders.
    const onB = await fleet.fill(pins.b);
    expect(onB.granted).toHaveLength(PER_EGRESS);
    for (const [egress, { refusal }] of [
      ['a', onA],
      ['b', onB],
    ] as const) {
      expect(refusal.refusal).toEqual(
        expect.objectContaining({
          limit_scope: 'venue',
          egress,
          limit: IP_LIMIT,
          holders: PER_EGRESS,
        }),
      );
      expect(refusal.message).toContain(
        `insufficient venue-wide (per-IP) rate budget on hyperliquid via egress ${egress}: ` +
          `${PER_EGRESS} trade(s) share its ${IP_LIMIT * 60} requests a minute`,
      );
    }
    const everyShare = shareOf(1, PER_EGRESS);
    for (const grant of [...onA.granted, ...onB.granted]) {
      const held = await fleet.client.get(grant.tradeId);
      expect(held?.rateBudget).toBe(everyShare);
      expect(held?.maker.pace_per_min).toBe(paceOf(PER_EGRESS));
    }
    // A worker's bucket spends the pace, under one request a second.
    const bucket = new TokenBucket(1);
    const watch = fleet.client.watchTrade(
      onA.granted[0]!.tradeId,
      applyToBuckets({ maker: bucket }),
    );
    try {
      await eventually(() => expect(bucket.rate).toBeCloseTo(paceOf(PER_EGRESS) / 60, 9));
    } finally {
      watch.close();
    }
    expect(await fleet.client.account(hl(pins.b[0]!))).toEqual(
      expect.objectContaining({ egress: 'b', venue_holders: PER_EGRESS, venue_limit: IP_LIMIT }),
    );
    await eventually(() => {
      // What the holders may spend a minute together stays within the per-IP limit.
      for (const pool of ['hyperliquid@a', 'hyperliquid@b']) {
        expect(fleet.ledger.poolSpendPerMin(pool)).toBe(paceOf(PER_EGRESS) * PER_EGRESS);
        expect(fleet.ledger.poolSpendPerMin(pool)).toBeLessThanOrEqual(IP_LIMIT * 60);
      }
    });
  });

  it("leaves a third egress's accounts untouched by the others' joins and leaves", async () => {
    const [first, second] = pins.c as [string, string];
    const held = await fleet.desk.create(hl(first), account('aster'));
    expect(held.rateBudget).toBe(shareOf(1, 1));
    let onA: Awaited<ReturnType<EgressFleet['fill']>> | undefined;
    const joins = await fleet.messages(async () => {
      onA = await fleet.fill(pins.a);
    });
    expect(onA!.granted).toHaveLength(PER_EGRESS);
    const leaves = await fleet.messages(async () => {
      for (const grant of onA!.granted) {
        await fleet.desk.end(grant.tradeId);
      }
    });
    expect([...joins, ...leaves].filter((m) => m.wallet === first)).toEqual([]);
    expect((await fleet.client.get(held.tradeId))?.rateBudget).toBe(shareOf(1, 1));

    // A joiner on c's own egress shrinks it.
    const joined = await fleet.messages(() => fleet.desk.create(hl(second), account('aster')));
    expect(joined).toEqual([
      expect.objectContaining({ wallet: first, share: shareOf(1, 2), cause: 'venue_shared' }),
      expect.objectContaining({ wallet: second, share: shareOf(1, 2), cause: 'reserved' }),
    ]);
  });

  it('moves an account the plan moved to its new egress on the boot sweep, and rebuilds per egress', async () => {
    const [w1, w2] = moving.a as [string, string];
    const [w3] = moving.b as [string];
    const first = await fleet.desk.create(hl(w1), account('aster'));
    await fleet.desk.create(hl(w1), account('aster'));
    const mover = await fleet.desk.create(hl(w2), account('aster'));
    const onB = await fleet.desk.create(hl(w3), account('aster'));
    // a: w1 x2 and w2, b: w3 alone.
    expect((await fleet.client.get(first.tradeId))?.rateBudget).toBe(shareOf(2, 3));
    expect((await fleet.client.get(mover.tradeId))?.rateBudget).toBe(shareOf(1, 3));
    expect((await fleet.client.get(onB.tradeId))?.rateBudget).toBe(shareOf(1, 1));
    expect(fleet.ledger.takeViolations()).toEqual([]);

    // The next boot's plan pins w2 to b: a keeps w1's two, b holds two.
    const moved = { a: [...pins.a, w1], b: [...pins.b, w2, w3], c: pins.c };
    fleet.egressOf = egressIn(moved);
    await fleet.start(planOf(moved));
    await eventually(async () => {
      expect((await fleet.client.get(first.tradeId))?.rateBudget).toBe(shareOf(2, 2));
      expect((await fleet.client.get(mover.tradeId))?.rateBudget).toBe(shareOf(1, 2));
      expect((await fleet.client.get(onB.tradeId))?.rateBudget).toBe(shareOf(1, 2));
    });
    expect(await fleet.client.account(hl(w2))).toEqual(
      expect.objectContaining({ egress: 'b', venue_holders: 2 }),
    );
    expect((await fleet.client.account(hl(w1))).venue_holders).toBe(2);

    // The counts moved too: the mover's release grows b alone.
    await fleet.desk.end(mover.tradeId);
    expect((await fleet.client.get(onB.tradeId))?.rateBudget).toBe(shareOf(1, 1));
    expect((await fleet.client.get(first.tradeId))?.rateBudget).toBe(shareOf(2, 2));

    // A flushed Redis is rebuilt from Postgres per egress, to the same shares.
    const admin = new Redis(fleet.redis.url);
    await admin.flushall();
    await admin.quit();
    expect((await fleet.client.get(first.tradeId))?.rateBudget).toBe(shareOf(2, 2));
    expect((await fleet.client.get(onB.tradeId))?.rateBudget).toBe(shareOf(1, 1));
    expect((await fleet.client.get(first.tradeId))?.maker.pace_per_min).toBe(paceOf(2));
    expect((await fleet.client.get(onB.tradeId))?.maker.pace_per_min).toBe(paceOf(1));
    expect((await fleet.client.account(hl(w1))).venue_holders).toBe(2);
    expect((await fleet.client.account(hl(w3))).venue_holders).toBe(1);
  });
});

describe('budget service: one egress (no EGRESS_PLAN) keeps one per-IP term for the venue', () => {
  const fleet = new EgressFleet();

  beforeAll(async () => {
    await fleet.open();
    await fleet.start(undefined);
  });

  afterAll(() => fleet.close());

  afterEach(async () => {
    await fleet.desk.endAll();
    expect(fleet.ledger.takeViolations()).toEqual([]);
  });

  it('admits the per-IP term once, its refusal naming no egress', async () => {
    const { granted, refusal } = await fleet.fill(wallets(PER_EGRESS + 2));
    expect(granted).toHaveLength(PER_EGRESS);
    expect(refusal.refusal.egress).toBeUndefined();
    expect(refusal.message).toBe(
      `insufficient venue-wide (per-IP) rate budget on hyperliquid: ${PER_EGRESS} trade(s) ` +
        `share its ${IP_LIMIT * 60} requests a minute and another would get ` +
        `${paceOf(PER_EGRESS + 1)} a minute, under the minimum of ${HL.minIpSharePerMin}`,
    );
    expect(refusal.refusal.min_pace_per_min).toBe(HL.minIpSharePerMin);
    expect(await fleet.client.account(hl(randomWallet()))).toEqual(
      expect.objectContaining({ egress: 'default', venue_holders: PER_EGRESS }),
    );
    await eventually(() =>
      expect(fleet.ledger.poolSpendPerMin('hyperliquid@default')).toBe(
        paceOf(PER_EGRESS) * PER_EGRESS,
      ),
    );
  });
});
