import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from '@sts/testing';
import { account, TradeTable } from '../../test/budget-fixtures';
import { TradeBudgetRows } from './trade-budget-rows';

describe('TradeBudgetRows (real Postgres)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let trades: TradeTable;
  let rows: TradeBudgetRows;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await createDataSource(db.url, 'trade-budget-rows-spec').initialize();
    trades = await TradeTable.open(db.url);
    rows = new TradeBudgetRows(dataSource);
  });

  afterAll(async () => {
    await trades?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  it('writes an account in one statement, never an older state over a newer one', async () => {
    const maker = account('lighter');
    const hedgedThere = account('hyperliquid', maker.wallet);
    const [first, second, hedging] = [randomUUID(), randomUUID(), randomUUID()];
    await trades.insert({ id: first, maker, hedge: account('aster'), rateBudget: 40 });
    await trades.insert({ id: second, maker, hedge: account('aster'), rateBudget: 20 });
    await trades.insert({
      id: hedging,
      maker: account('paradex'),
      hedge: hedgedThere,
      rateBudget: 30,
      hedgeRateBudget: 20,
    });
    const holders = [
      { tradeId: first, role: 'maker' as const },
      { tradeId: second, role: 'maker' as const },
    ];

    expect(await rows.writeShares({ ...maker, share: 20, version: 6, holders })).toBe(1);
    // A change made before (version 5) that arrives late changes nothing.
    const stale = [...holders, { tradeId: randomUUID(), role: 'maker' as const }];
    expect(await rows.writeShares({ ...maker, share: 13, version: 5, holders: stale })).toBe(0);
    expect((await trades.budgets(first)).rate_budget).toBe(20);
    expect((await trades.budgets(second)).rate_budget).toBe(20);

    // The same version again writes a row that appeared since (the sweep's rewrite).
    const late = randomUUID();
    await trades.insert({ id: late, maker, hedge: account('aster'), rateBudget: 40 });
    const withLate = [...holders, { tradeId: late, role: 'maker' as const }];
    expect(await rows.writeShares({ ...maker, share: 20, version: 6, holders: withLate })).toBe(1);
    expect((await trades.budgets(late)).rate_budget).toBe(20);

    // A hedge holder's share goes to hedge_rate_budget, its rate_budget untouched.
    expect(
      await rows.writeShares({
        ...hedgedThere,
        share: 10,
        version: 7,
        holders: [{ tradeId: hedging, role: 'hedge' }],
      }),
    ).toBe(1);
    expect(await trades.budgets(hedging)).toEqual({ rate_budget: 30, hedge_rate_budget: 10 });

    // A terminal row keeps the budget it ended with.
    await trades.setStatus(second, 'completed');
    await rows.writeShares({ ...maker, share: 40, version: 8, holders });
    expect((await trades.budgets(first)).rate_budget).toBe(40);
    expect((await trades.budgets(second)).rate_budget).toBe(20);
  });
});
