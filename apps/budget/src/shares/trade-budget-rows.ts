import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { BudgetAccount } from '@sts/contracts';
import { LIVE_TRADE_STATUSES } from '@sts/persistence';
import type { AccountState } from '../budget.types';
import { DATA_SOURCE } from '../tokens';

/** A trade row's accounts, as the rebuild and the sweeper read them. */
export interface TradeAccountsRow {
  id: string;
  status: string;
  maker_exchange: string;
  maker_wallet: string;
  hedge_exchange: string;
  hedge_wallet: string;
}

const COLUMNS = 'id, status, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet';

/**
 * The budget service's window on the `trades` table: it reads which trades
 * are live and writes only rate_budget, hedge_rate_budget and updated_at of
 * live trades, never anything else.
 */
@Injectable()
export class TradeBudgetRows {
  constructor(@Inject(DATA_SOURCE) private readonly db: DataSource) {}

  liveTrades(): Promise<TradeAccountsRow[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM trades WHERE status = ANY($1)`, [
      LIVE_TRADE_STATUSES,
    ]);
  }

  async byIds(ids: string[]): Promise<Map<string, TradeAccountsRow>> {
    if (ids.length === 0) return new Map();
    const rows: TradeAccountsRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM trades WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Writes an account's current shares into its live trades' rows. Writers
   * for one account queue on a transaction-scoped advisory lock and each reads
   * the share from the budget store inside it, so the last write is always of
   * the latest state, whichever replica or change it came from.
   */
  async writeShares(
    account: BudgetAccount,
    readState: () => Promise<AccountState | null>,
  ): Promise<number> {
    return this.db.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `sts-budget:${account.venue}:${account.wallet}`,
      ]);
      const state = await readState();
      if (!state) return 0;
      let updated = 0;
      for (const [role, column] of [
        ['maker', 'rate_budget'],
        ['hedge', 'hedge_rate_budget'],
      ] as const) {
        const ids = state.holders.filter((h) => h.role === role).map((h) => h.tradeId);
        if (ids.length === 0) continue;
        const [, count] = (await manager.query(
          `UPDATE trades SET ${column} = $1, updated_at = now()
            WHERE id = ANY($2::uuid[]) AND status = ANY($3) AND ${column} IS DISTINCT FROM $1`,
          [state.share, ids, LIVE_TRADE_STATUSES],
        )) as [unknown, number];
        updated += count;
      }
      return updated;
    });
  }
}
