import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import {
  LIVE_STATUS_SQL,
  postgresPool,
  TRADE_BUDGETS_JOIN_SQL,
  TRADE_HEDGE_RATE_BUDGET_SQL,
  TRADE_RATE_BUDGET_SQL,
  TradeEventEntity,
} from '@sts/persistence';
import { AppError } from '@sts/platform';
import { PRESENTED_TRADE_FIELDS, type PresentedTrade } from './trade.presenter';

export const TRADE_LIST_LIMIT = 50;
export const EVENTS_PAGE_LIMIT = 5000;

/** Read side of trades: every query filtered by the caller's user id. */
@Injectable()
export class TradeQueries {
  constructor(private readonly dataSource: DataSource) {}

  async recent(userId: string): Promise<PresentedTrade[]> {
    const result = await postgresPool(this.dataSource).query<PresentedTrade>({
      name: 'trades.recent',
      text: `SELECT ${PRESENTED_COLUMNS} FROM ${PRESENTED_FROM}
       WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT ${TRADE_LIST_LIMIT}`,
      values: [userId],
    });
    return result.rows;
  }

  /**
   * A page of the caller's trades, newest first: in `statuses` if given,
   * created before the trade `before` (the caller's, else 404) if given.
   */
  async page(userId: string, filter: TradePageFilter): Promise<PresentedTrade[]> {
    const values: unknown[] = [userId, filter.limit];
    const where = ['t.user_id = $1'];
    if (filter.statuses) {
      values.push(filter.statuses);
      where.push(`t.status = ANY($${values.length})`);
    }
    if (filter.before) {
      await this.one(userId, filter.before);
      values.push(filter.before);
      // Compared in Postgres: created_at keeps microseconds a JavaScript Date would drop.
      where.push(
        `(t.created_at, t.id) < (SELECT b.created_at, b.id FROM trades b WHERE b.id = $${values.length})`,
      );
    }
    const result = await postgresPool(this.dataSource).query<PresentedTrade>(
      `SELECT ${PRESENTED_COLUMNS} FROM ${PRESENTED_FROM} WHERE ${where.join(' AND ')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
      values,
    );
    return result.rows;
  }

  /** The caller's live trades (pending to recovering), oldest first: what cancel-all cancels. */
  async liveIds(userId: string): Promise<string[]> {
    const result = await postgresPool(this.dataSource).query<{ id: string }>({
      name: 'trades.live-ids',
      text: `SELECT id FROM trades WHERE user_id = $1 AND status IN ${LIVE_STATUS_SQL}
       ORDER BY created_at, id`,
      values: [userId],
    });
    return result.rows.map((row) => row.id);
  }

  /**
   * Unknown and foreign trades are the same 404, on purpose. The hottest read
   * of the API: one statement, columns named as the entity's properties, no
   * query builder (TypeORM's took most of the CPU of a GET), prepared once per
   * connection (planning the budgets' joins cost Postgres more than running them).
   */
  async one(userId: string, tradeId: string): Promise<PresentedTrade> {
    const [trade] = isUuid(tradeId)
      ? (
          await postgresPool(this.dataSource).query<PresentedTrade>({
            name: 'trades.one',
            text: `SELECT ${PRESENTED_COLUMNS} FROM ${PRESENTED_FROM} WHERE t.id = $1 AND t.user_id = $2`,
            values: [tradeId, userId],
          })
        ).rows
      : [];
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
    const rows = await this.dataSource.getRepository(TradeEventEntity).find({
      where: { tradeId, sequence: MoreThan(afterSequence) },
      order: { sequence: 'ASC' },
      take: limit + 1,
    });
    return { events: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}

export interface TradePageFilter {
  limit: number;
  statuses?: string[];
  before?: string;
}

export interface TradeEventsPage {
  events: TradeEventEntity[];
  /** Entries with a higher sequence than the page's last exist. */
  hasMore: boolean;
}

/** A trade with its budgets as they are now: a live trade's are its accounts' shares. */
const PRESENTED_FROM = `trades t ${TRADE_BUDGETS_JOIN_SQL}`;
const BUDGET_COLUMNS: Record<string, string> = {
  rateBudget: TRADE_RATE_BUDGET_SQL,
  hedgeRateBudget: TRADE_HEDGE_RATE_BUDGET_SQL,
};

/** The columns presentTrade reads, named as TradeEntity's properties. */
const PRESENTED_COLUMNS = PRESENTED_TRADE_FIELDS.map((field) => {
  const column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  return `${BUDGET_COLUMNS[field] ?? `t.${column}`} AS "${field}"`;
}).join(', ');

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
