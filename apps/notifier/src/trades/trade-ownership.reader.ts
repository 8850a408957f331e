import type { DataSource } from 'typeorm';
import { TradeRepository } from '@sts/persistence';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only question the notifier asks about trades. */
export class TradeOwnershipReader {
  private readonly trades: TradeRepository;

  constructor(dataSource: DataSource) {
    this.trades = new TradeRepository(dataSource.manager);
  }

  /**
   * The trade's status when it exists and belongs to `userId`, else null: a
   * foreign trade and a missing one are indistinguishable on purpose.
   */
  async statusOfOwnTrade(tradeId: string, userId: string): Promise<string | null> {
    if (!UUID.test(tradeId)) {
      return null;
    }
    return this.trades.statusOfOwn(tradeId, userId);
  }
}
