import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  FundingLedgerRepository,
  type FundingAccount,
  type FundingToRecord,
} from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from '@sts/testing';

/** The funding tables through their one repository, on a database of their own. */
describe('the funding ledger', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let ledger: FundingLedgerRepository;
  let alice: FundingAccount;
  let bob: FundingAccount;
  let aliceTrade: string;
  let bobTrade: string;

  const user = async (): Promise<string> => {
    const [row] = await database.query<{ id: string }>(
      `INSERT INTO users (primary_wallet) VALUES ($1) RETURNING id`,
      [`0x${randomUUID().replace(/-/g, '').padEnd(40, '0')}`],
    );
    return row.id;
  };
  const trade = async (userId: string, wallet: string): Promise<string> => {
    const id = randomUUID();
    await database.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange,
         short_wallet, maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet,
         cap_group, target_spread, spread_condition, target_size, max_slippage, status,
         rate_budget, idempotency_key)
       VALUES ($1, $2, 'BTC', 'hyperliquid', $3, 'paradex', $3, 'long', 'hyperliquid', $3,
         'paradex', $3, 'hyperliquid', '1', 'gte', '0.1', '0.001', 'completed', 1, $4)`,
      [id, userId, wallet, `key-${id}`],
    );
    return id;
  };
  const payment = (paidAt: string, amount: string, tradeId: string): FundingToRecord => ({
    symbol: 'BTC',
    market: 'BTC',
    paidAt: new Date(paidAt),
    amount,
    asset: 'USDC',
    rate: '0.0001',
    size: '0.01',
    shares: [{ tradeId, amount }],
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url, 'funding-ledger-spec');
    await dataSource.initialize();
    ledger = new FundingLedgerRepository(dataSource.manager);
    const wallet = '0x' + 'a'.repeat(40);
    alice = { userId: await user(), exchange: 'hyperliquid', wallet };
    bob = { userId: await user(), exchange: 'hyperliquid', wallet };
    aliceTrade = await trade(alice.userId, wallet);
    bobTrade = await trade(bob.userId, wallet);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const window = [Date.parse('2026-12-01T00:00:00Z'), Date.parse('2026-12-02T00:00:00Z')] as const;

  it('stores a settlement read twice, or by two replicas at once, once', async () => {
    const read = [payment('2026-12-01T08:00:00Z', '-0.65', aliceTrade)];
    await Promise.all([
      ledger.record(alice, read, new Date('2026-12-01T08:30:00Z')),
      ledger.record(alice, read, new Date('2026-12-01T08:30:00Z')),
    ]);
    await ledger.record(alice, read, new Date('2026-12-01T09:00:00Z'));
    const rows = await ledger.tradeFundingIn(alice.userId, ...window);
    expect(rows).toEqual([
      {
        tradeId: aliceTrade,
        market: 'BTC',
        exchange: 'hyperliquid',
        paidAtMs: Date.parse('2026-12-01T08:00:00Z'),
        amount: '-0.65',
      },
    ]);
  });

  it('moves an account’s read mark forward, never back', async () => {
    expect(await ledger.readUntil(alice)).toEqual(new Date('2026-12-01T09:00:00Z'));
    await ledger.record(alice, [], new Date('2026-12-01T07:00:00Z'));
    expect(await ledger.readUntil(alice)).toEqual(new Date('2026-12-01T09:00:00Z'));
    expect(await ledger.readUntil({ ...alice, exchange: 'paradex' })).toBeNull();
  });

  it('answers each user their own trades’ funding, in the window only', async () => {
    await ledger.record(bob, [payment('2026-12-01T08:00:00Z', '-0.3', bobTrade)], new Date());
    expect((await ledger.tradeFundingIn(bob.userId, ...window)).map((row) => row.tradeId)).toEqual([
      bobTrade,
    ]);
    expect(await ledger.tradeFundingIn(alice.userId, window[1], window[1] + 86_400_000)).toEqual(
      [],
    );
  });
});
