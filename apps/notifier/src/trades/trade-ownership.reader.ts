import type { DataSource, Repository } from 'typeorm';
import { TradeEntity } from '@sts/persistence';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only query the notifier makes about trades. */
export class TradeOwnershipReader {
  private readonly trades: Repository<TradeEntity>;

  constructor(dataSource: DataSource) {
    this.trades = dataSource.getRepository(TradeEntity);
  }

  /**
   * The trade's status when it exists and belongs to `userId`, else null: a
   * foreign trade and a missing one are indistinguishable on purpose.
   */
  async statusOfOwnTrade(tradeId: string, userId: string): Promise<string | null> {
    if (!UUID.test(tradeId)) {
      return null;
    }
    const trade = await this.trades.findOne({
      select: { id: true, userId: true, status: true },
      where: { id: tradeId, userId },
    });
    return trade?.status ?? null;
  }
}
