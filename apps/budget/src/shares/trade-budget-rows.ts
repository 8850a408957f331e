import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type TradeAccountsRow, TradeRepository } from '@sts/persistence';
import { DATA_SOURCE } from '../tokens';

export type { TradeAccountsRow };

/**
 * The budget service's window on Postgres: it reads which trades are live
 * and writes the accounts' shares (`budget_account_shares`); of a trade's row
 * it writes only a missing hedge budget (holdHedges).
 */
@Injectable()
export class TradeBudgetRows {
  private readonly trades: TradeRepository;

  constructor(@Inject(DATA_SOURCE) db: DataSource) {
    this.trades = new TradeRepository(db.manager);
  }

  liveTrades(): Promise<TradeAccountsRow[]> {
    return this.trades.liveAccounts();
  }

  /** In one read: every live trade, and the rows of `ids` whatever their status (the sweep). */
  liveOrAmong(ids: string[]): Promise<TradeAccountsRow[]> {
    return this.trades.liveOrAmongAccounts(ids);
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
    await this.trades.holdHedges(trades);
  }
}
