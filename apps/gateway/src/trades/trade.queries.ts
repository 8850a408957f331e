import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import { TradeEntity, TradeEventEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';

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

  /** Unknown and foreign trades are the same 404, on purpose. */
  async one(userId: string, tradeId: string): Promise<TradeEntity> {
    const trade = isUuid(tradeId)
      ? await this.dataSource.getRepository(TradeEntity).findOneBy({ id: tradeId, userId })
      : null;
    if (!trade) throw new AppError('trade_not_found', 'trade not found');
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

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
