import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
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

  /** In one read: every live trade, and the rows of `ids` whatever their status (the sweep). */
  liveOrAmong(ids: string[]): Promise<TradeAccountsRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM trades WHERE status = ANY($1) OR id = ANY($2::uuid[])`,
      [LIVE_TRADE_STATUSES, ids],
    );
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
