import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QUALITY_EVENT_TYPES, TradeEventRepository } from '@sts/persistence';
import { TradeCostsReader } from '../trades/costs/trade-costs.reader';
import { TradeQueries } from '../trades/trade.queries';
import { loggedQuality, tradeQuality, type TradeQualityView } from './trade-quality';

/**
 * One trade's execution quality (issue 60): the caller's trade only (another
 * user's and an unknown one are the same 404), from its execution log.
 */
@Injectable()
export class ReadTradeQualityUseCase {
  private readonly events: TradeEventRepository;

  constructor(
    dataSource: DataSource,
    private readonly trades: TradeQueries,
    private readonly costs: TradeCostsReader,
  ) {
    this.events = new TradeEventRepository(dataSource.manager);
  }

  async execute(userId: string, tradeId: string): Promise<TradeQualityView> {
    const trade = await this.trades.one(userId, tradeId);
    const [entries, costs] = await Promise.all([
      this.events.entriesOfTrade(trade.id, QUALITY_EVENT_TYPES),
      this.costs.costsOf([trade]),
    ]);
    const logged = loggedQuality(entries.map(({ entry }) => entry));
    return tradeQuality(trade, logged, costs.get(trade.id)?.realised_spread ?? null);
  }
}
