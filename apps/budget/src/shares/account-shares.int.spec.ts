import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  postgresPool,
  TRADE_BUDGETS_JOIN_SQL,
  writeAccountShares,
  type AccountShareState,
  TRADE_HEDGE_RATE_BUDGET_SQL,
  TRADE_RATE_BUDGET_SQL,
} from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from '@sts/testing';
import { account, TradeTable } from '../../test/budget-fixtures';

describe('account shares and the trades budgets they show (real Postgres)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let trades: TradeTable;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await createDataSource(db.url, 'trade-budget-rows-spec').initialize();
    trades = await TradeTable.open(db.url);
  });

  const writeShares = (states: AccountShareState[]) =>
    writeAccountShares(postgresPool(dataSource), states);

  afterAll(async () => {
    await trades?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  it('writes accounts in one statement, never an older state over a newer one', async () => {
    const maker = account('lighter');
    const other = account('paradex');
    const [first, second, elsewhere] = [randomUUID(), randomUUID(), randomUUID()];
    await trades.insert({ id: first, maker, hedge: account('aster'), rateBudget: 40 });
    await trades.insert({ id: second, maker, hedge: account('aster'), rateBudget: 20 });
    await trades.insert({ id: elsewhere, maker: other, hedge: account('aster'), rateBudget: 30 });
    // Until its account is written a live trade shows what its row was created with.
    expect(await trades.budgets(first)).toEqual({ rate_budget: 40, hedge_rate_budget: null });

    // Two accounts, and two states of one of them, in one write: the newest of each.
    expect(
      await writeShares([
        { ...maker, share: 13, version: 5 },
        { ...other, share: 15, version: 6 },
        { ...maker, share: 20, version: 7 },
      ]),
    ).toBe(2);
    expect((await trades.budgets(first)).rate_budget).toBe(20);
    expect((await trades.budgets(second)).rate_budget).toBe(20);
    expect((await trades.budgets(elsewhere)).rate_budget).toBe(15);

    // A change made before (version 6) that arrives late changes nothing; the same version again
    // is written (the sweep's rewrite).
    expect(await writeShares([{ ...maker, share: 13, version: 6 }])).toBe(0);
    expect((await trades.budgets(first)).rate_budget).toBe(20);
    expect(await writeShares([{ ...maker, share: 20, version: 7 }])).toBe(1);
    expect(await writeShares([])).toBe(0);
  });

  it("shows a hedge holder's share as its hedge_rate_budget", async () => {
    const hedgedThere = account('hyperliquid');
    const maker = account('paradex');
    const hedging = randomUUID();
    await trades.insert({
      id: hedging,
      maker,
      hedge: hedgedThere,
      rateBudget: 30,
      hedgeRateBudget: 20,
    });
    await writeShares([{ ...hedgedThere, share: 10, version: 8 }]);
    expect(await trades.budgets(hedging)).toEqual({ rate_budget: 30, hedge_rate_budget: 10 });
    // A trade that holds nothing on its hedge account shows no hedge budget, whatever that
    // account's share.
    const unshared = randomUUID();
    await trades.insert({ id: unshared, maker, hedge: hedgedThere, rateBudget: 30 });
    expect(await trades.budgets(unshared)).toEqual({ rate_budget: 30, hedge_rate_budget: null });
  });

  it('freezes in the row the budgets a trade ended with, whoever ends it', async () => {
    const maker = account('lighter');
    const hedge = account('hyperliquid');
    const [ending, staying] = [randomUUID(), randomUUID()];
    await trades.insert({ id: ending, maker, hedge, rateBudget: 40, hedgeRateBudget: 40 });
    await trades.insert({ id: staying, maker, hedge, rateBudget: 40, hedgeRateBudget: 40 });
    await writeShares([
      { ...maker, share: 20, version: 9 },
      { ...hedge, share: 25, version: 9 },
    ]);
    // Live to live changes nothing in the row.
    await trades.setStatus(ending, 'active');
    expect(await trades.rowBudgets(ending)).toEqual({ rate_budget: 40, hedge_rate_budget: 40 });

    await trades.setStatus(ending, 'completed');
    expect(await trades.rowBudgets(ending)).toEqual({ rate_budget: 20, hedge_rate_budget: 25 });
    // Its account grows once it is released: the live trade follows, the finished one does not.
    await writeShares([{ ...maker, share: 40, version: 10 }]);
    expect(await trades.budgets(staying)).toEqual({ rate_budget: 40, hedge_rate_budget: 25 });
    expect(await trades.budgets(ending)).toEqual({ rate_budget: 20, hedge_rate_budget: 25 });
  });

  it("shows an account row only once it is as new as the trade's own grant", async () => {
    const maker = account('lighter');
    const hedge = account('hyperliquid');
    const [live, ending] = [randomUUID(), randomUUID()];
    await writeShares([
      { ...maker, share: 5, version: 15 },
      { ...hedge, share: 5, version: 15 },
    ]);
    // Granted at version 20: the account rows (15) predate the grant, and are not its budgets.
    for (const id of [live, ending]) {
      await trades.insert({
        id,
        maker,
        hedge,
        rateBudget: 40,
        hedgeRateBudget: 30,
        budgetVersion: 20,
      });
    }
    expect(await trades.budgets(live)).toEqual({ rate_budget: 40, hedge_rate_budget: 30 });
    // Ended before its grant's rows were written: it keeps its grant, not the older shares.
    await trades.setStatus(ending, 'canceled');
    expect(await trades.rowBudgets(ending)).toEqual({ rate_budget: 40, hedge_rate_budget: 30 });
    await writeShares([{ ...maker, share: 20, version: 20 }]);
    expect(await trades.budgets(live)).toEqual({ rate_budget: 20, hedge_rate_budget: 30 });
    expect(await trades.budgets(ending)).toEqual({ rate_budget: 40, hedge_rate_budget: 30 });
  });

  it('shows through the trade_budgets view what the reads spell as joins', async () => {
    const byView = await dataSource.query(
      'SELECT trade_id AS id, rate_budget, hedge_rate_budget FROM trade_budgets ORDER BY trade_id',
    );
    const byJoins = await dataSource.query(
      `SELECT t.id, ${TRADE_RATE_BUDGET_SQL} AS rate_budget,
         ${TRADE_HEDGE_RATE_BUDGET_SQL} AS hedge_rate_budget
       FROM trades t ${TRADE_BUDGETS_JOIN_SQL} ORDER BY t.id`,
    );
    // The trades of the cases above: live and finished, with and without a hedge budget.
    expect(byView.length).toBeGreaterThanOrEqual(7);
    expect(byJoins).toEqual(byView);
  });
});
