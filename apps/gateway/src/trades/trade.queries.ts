import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import { postgresPool, TradeEntity, TradeEventEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { PRESENTED_TRADE_FIELDS, type PresentedTrade } from './trade.presenter';

export const TRADE_LIST_LIMIT = 50;
export const EVENTS_PAGE_LIMIT = 5000;

/** Read side of trades: every query filtered by the caller's user id. */
@Injectable()
export class TradeQueries {
  constructor(private readonly dataSource: DataSource) {}

  recent(userId: string): Promise<TradeEntity[]> {
    return this.dataSource.getRepository(TradeEntity).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: TRADE_LIST_LIMIT,
    });
  }

  /**
   * Unknown and foreign trades are the same 404, on purpose. The hottest read
   * of the API: one statement, columns named as the entity's properties, no
   * query builder (TypeORM's took most of the CPU of a GET).
   */
  async one(userId: string, tradeId: string): Promise<PresentedTrade> {
    const [trade] = isUuid(tradeId)
      ? (
          await postgresPool(this.dataSource).query<PresentedTrade>(
            `SELECT ${PRESENTED_COLUMNS} FROM trades WHERE id = $1 AND user_id = $2`,
            [tradeId, userId],
          )
        ).rows
      : [];
    if (!trade) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    return trade;
  }

  async events(
    userId: string,
    tradeId: string,
    afterSequence = 0,
    limit = EVENTS_PAGE_LIMIT,
  ): Promise<TradeEventEntity[]> {
    await this.one(userId, tradeId);
    return this.dataSource.getRepository(TradeEventEntity).find({
      where: { tradeId, sequence: MoreThan(afterSequence) },
      order: { sequence: 'ASC' },
      take: limit,
    });
  }
}

/** The columns presentTrade reads, named as TradeEntity's properties. */
const PRESENTED_COLUMNS = PRESENTED_TRADE_FIELDS.map(
  (field) => `${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)} AS "${field}"`,
).join(', ');

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
