import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TradeEventRepository, TradeRepository, type LogPage } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { PRESENTED_TRADE_FIELDS, type PresentedTrade } from './trade.presenter';

export const TRADE_LIST_LIMIT = 50;
export const EVENTS_PAGE_LIMIT = 5000;

/** Read side of trades: every query filtered by the caller's user id. */
@Injectable()
export class TradeQueries {
  private readonly trades: TradeRepository;

  constructor(private readonly dataSource: DataSource) {
    this.trades = new TradeRepository(dataSource.manager);
  }

  async recent(userId: string): Promise<PresentedTrade[]> {
    return this.trades.recentOf<PresentedTrade>(userId, PRESENTED_TRADE_FIELDS, TRADE_LIST_LIMIT);
  }

  /**
   * A page of the caller's trades, newest first: in `statuses` if given,
   * created before the trade `before` (the caller's, else 404) if given.
   */
  async page(userId: string, filter: TradePageFilter): Promise<PresentedTrade[]> {
    if (filter.before) {
      await this.one(userId, filter.before);
    }
    return this.trades.pageOf<PresentedTrade>(userId, PRESENTED_TRADE_FIELDS, filter);
  }

  /** The caller's live trades (pending to recovering), oldest first: what cancel-all cancels. */
  async liveIds(userId: string): Promise<string[]> {
    return this.trades.liveIdsOf(userId);
  }

  /**
   * Unknown and foreign trades are the same 404, on purpose. The hottest read
   * of the API: one statement, columns named as the entity's properties, no
   * query builder (TypeORM's took most of the CPU of a GET), prepared once per
   * connection (planning the budgets' joins cost Postgres more than running them).
   */
  async one(userId: string, tradeId: string): Promise<PresentedTrade> {
    const trade = isUuid(tradeId)
      ? await this.trades.oneOf<PresentedTrade>(userId, tradeId, PRESENTED_TRADE_FIELDS)
      : undefined;
    if (!trade) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    return trade;
  }

  /**
   * One page of the execution log after `afterSequence`, and whether more
   * entries follow it (one row beyond the page is read to know).
   */
  async events(
    userId: string,
    tradeId: string,
    afterSequence = 0,
    limit = EVENTS_PAGE_LIMIT,
  ): Promise<TradeEventsPage> {
    await this.one(userId, tradeId);
    return new TradeEventRepository(this.dataSource.manager).page(tradeId, afterSequence, limit);
  }
}

export interface TradePageFilter {
  limit: number;
  statuses?: string[];
  before?: string;
}

export type TradeEventsPage = LogPage;

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
