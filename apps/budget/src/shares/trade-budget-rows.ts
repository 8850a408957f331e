import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { BudgetAccount, BudgetRole } from '@sts/contracts';
import { LIVE_TRADE_STATUSES } from '@sts/persistence';
import type { HolderRef } from '../budget.types';
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
   * Writes an account's shares into its live trades' rows: one statement, one
   * round trip. The account's version is recorded with it; a state older than
   * the last one written changes nothing (two writes of one account may
   * arrive out of order: two replicas, two changes), one of the same version
   * is written again (the sweep heals a row inserted after its write).
   */
  async writeShares(state: AccountShareState): Promise<number> {
    const ids = (role: BudgetRole) =>
      state.holders.filter((h) => h.role === role).map((h) => h.tradeId);
    const [, updated] = (await this.db.query(
      `WITH newer AS (
         INSERT INTO budget_row_versions AS v (venue, wallet, version) VALUES ($1, $2, $3)
         ON CONFLICT (venue, wallet) DO UPDATE SET version = EXCLUDED.version
           WHERE v.version <= EXCLUDED.version
         RETURNING 1
       )
       UPDATE trades SET
         rate_budget = CASE WHEN id = ANY($5::uuid[]) THEN $4::int ELSE rate_budget END,
         hedge_rate_budget = CASE WHEN id = ANY($6::uuid[]) THEN $4::int ELSE hedge_rate_budget END,
         updated_at = now()
       WHERE EXISTS (SELECT 1 FROM newer) AND status = ANY($7)
         AND ((id = ANY($5::uuid[]) AND rate_budget IS DISTINCT FROM $4::int)
           OR (id = ANY($6::uuid[]) AND hedge_rate_budget IS DISTINCT FROM $4::int))`,
      [
        state.venue,
        state.wallet,
        state.version,
        state.share,
        ids('maker'),
        ids('hedge'),
        LIVE_TRADE_STATUSES,
      ],
    )) as [unknown, number];
    return updated;
  }
}

/** What a row write needs of an account: its share, the version of it, its holders. */
export interface AccountShareState extends BudgetAccount {
  share: number;
  version: number;
  holders: HolderRef[];
}
