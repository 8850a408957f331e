import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from '@sts/testing';
import { TradeReader } from './trade-record';

describe('TradeReader (real Postgres)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await createDataSource(db.url, 'trade-record-spec').initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("loads a trade with its accounts' current shares, not the grant it was created with", async () => {
    const userId = randomUUID();
    const wallet = `0x${randomUUID().replace(/-/g, '')}`;
    const tradeId = randomUUID();
    await dataSource.query('INSERT INTO users (id, primary_wallet) VALUES ($1, $2)', [
      userId,
      wallet,
    ]);
    await dataSource.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange,
         short_wallet, maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet,
         cap_group, target_spread, spread_condition, target_size, max_slippage, status,
         rate_budget, hedge_rate_budget, idempotency_key, budget_version, hedge_budget_version)
       VALUES ($1, $2, 'BTC', 'paradex', $3, 'hyperliquid', $3, 'long', 'paradex', $3,
         'hyperliquid', $3, 'paradex', '1', 'gte', '0.1', '0.001', 'active', 100, 80, $4, 5, 5)`,
      [tradeId, userId, wallet, `key-${tradeId}`],
    );
    const reader = new TradeReader(dataSource);
    expect((await reader.load(tradeId)).record).toMatchObject({
      rateBudget: 100,
      hedgeRateBudget: 80,
    });

    // Others joined both accounts since: the shares the worker starts spending at are today's.
    await dataSource.query(
      `INSERT INTO budget_account_shares (venue, wallet, share, version)
       VALUES ('paradex', $1, 10, 9), ('hyperliquid', $1, 8, 9)`,
      [wallet],
    );
    expect((await reader.load(tradeId)).record).toMatchObject({
      rateBudget: 10,
      hedgeRateBudget: 8,
    });
  });
});
