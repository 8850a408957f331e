import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { BudgetAccount } from '@sts/contracts';
import { LIVE_TRADE_STATUSES, postgresPool } from '@sts/persistence';
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
 * The budget service's window on Postgres: it reads which trades are live
 * and writes the accounts' shares (`budget_account_shares`), never a trade.
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
    if (ids.length === 0) {
      return new Map();
    }
    const rows: TradeAccountsRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM trades WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Writes accounts' shares, any number in one statement: one row per
   * account (`budget_account_shares`), which the `trade_budgets` view shows
   * as the budgets of the account's live trades. The version of each is
   * recorded with it; a state older than the one written changes nothing
   * (two writes of one account may arrive out of order: two replicas, two
   * changes), one of the same version is written again (the sweep's rewrite).
   * Returns how many accounts were written.
   */
  async writeShares(states: AccountShareState[]): Promise<number> {
    // One row per account in a statement (ON CONFLICT cannot touch a row twice): the newest.
    const newest = new Map<string, AccountShareState>();
    for (const state of states) {
      const key = `${state.venue}:${state.wallet}`;
      const held = newest.get(key);
      if (!held || held.version <= state.version) {
        newest.set(key, state);
      }
    }
    if (newest.size === 0) {
      return 0;
    }
    const rows = [...newest.values()];
    const written = await postgresPool(this.db).query(
      `INSERT INTO budget_account_shares AS s (venue, wallet, share, version)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[])
       ON CONFLICT (venue, wallet) DO UPDATE
         SET share = EXCLUDED.share, version = EXCLUDED.version, updated_at = now()
         WHERE s.version <= EXCLUDED.version`,
      [
        rows.map((row) => row.venue),
        rows.map((row) => row.wallet),
        rows.map((row) => row.share),
        rows.map((row) => row.version),
      ],
    );
    return written.rowCount ?? 0;
  }

  /**
   * A live trade found holding a hedge share its row has no hedge budget for
   * (adopted by a rebuild or the sweep after its hedge venue came to share its
   * limit): its row gets one, so `trade_budgets` shows the hedge account's share.
   */
  async holdHedges(trades: Array<{ tradeId: string; share: number }>): Promise<void> {
    if (trades.length === 0) {
      return;
    }
    await postgresPool(this.db).query(
      `UPDATE trades t SET hedge_rate_budget = held.share, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS held (id, share)
       WHERE t.id = held.id AND t.hedge_rate_budget IS NULL AND t.status = ANY($3)`,
      [
        trades.map((trade) => trade.tradeId),
        trades.map((trade) => trade.share),
        LIVE_TRADE_STATUSES,
      ],
    );
  }
}

/** What a share write needs of an account: its share and the version of it. */
export interface AccountShareState extends BudgetAccount {
  share: number;
  version: number;
}
