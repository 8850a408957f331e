import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { BudgetAccount } from '@sts/contracts';
import type { VenueId } from '@sts/domain';
import { sleep } from '@sts/platform';

/** Trade rows as the gateway writes them; only the columns the budget service reads matter. */
export class TradeTable {
  private readonly userId = `user-${randomUUID()}`;

  private constructor(private readonly client: Client) {}

  static async open(databaseUrl: string): Promise<TradeTable> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const table = new TradeTable(client);
    await client.query('INSERT INTO users (id, primary_wallet) VALUES ($1, $2)', [
      table.userId,
      `0x${randomUUID().replace(/-/g, '')}`,
    ]);
    return table;
  }

  async insert(trade: {
    id: string;
    maker: BudgetAccount;
    hedge: BudgetAccount;
    status?: string;
    rateBudget: number;
    hedgeRateBudget?: number | null;
    /** The budget store's version of its grant (0: any account row shows). */
    budgetVersion?: number;
  }): Promise<void> {
    await this.client.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange,
         short_wallet, maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet,
         cap_group, target_spread, spread_condition, target_size, max_slippage, status,
         rate_budget, hedge_rate_budget, idempotency_key, budget_version, hedge_budget_version)
       VALUES ($1, $2, 'BTC', $3, $4, $5, $6, 'long', $3, $4, $5, $6, $3, '1', 'gte', '0.1',
         '0.001', $7, $8, $9, $10, $11, $11)`,
      [
        trade.id,
        this.userId,
        trade.maker.venue,
        trade.maker.wallet,
        trade.hedge.venue,
        trade.hedge.wallet,
        trade.status ?? 'pending',
        trade.rateBudget,
        trade.hedgeRateBudget ?? null,
        `key-${trade.id}`,
        trade.budgetVersion ?? 0,
      ],
    );
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.client.query('UPDATE trades SET status = $2 WHERE id = $1', [id, status]);
  }

  /** A trade's budgets as the API shows them (the `trade_budgets` view). */
  async budgets(id: string): Promise<{ rate_budget: number; hedge_rate_budget: number | null }> {
    const result = await this.client.query(
      'SELECT rate_budget, hedge_rate_budget FROM trade_budgets WHERE trade_id = $1',
      [id],
    );
    return result.rows[0];
  }

  /** What the trade's own row holds (a finished trade's budgets are frozen there). */
  async rowBudgets(id: string): Promise<{ rate_budget: number; hedge_rate_budget: number | null }> {
    const result = await this.client.query(
      'SELECT rate_budget, hedge_rate_budget FROM trades WHERE id = $1',
      [id],
    );
    return result.rows[0];
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

export const account = (venue: VenueId, wallet = randomWallet()): BudgetAccount => ({
  venue,
  wallet,
});

export const randomWallet = (): string => `0x${randomUUID().replace(/-/g, '').slice(0, 20)}`;

/** Polls until `check` stops throwing, or throws its last error. */
export async function eventually(
  check: () => Promise<void> | void,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await sleep(25);
    }
  }
}
