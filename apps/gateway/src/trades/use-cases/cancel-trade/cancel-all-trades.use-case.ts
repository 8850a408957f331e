import { Injectable } from '@nestjs/common';
import { AppError } from '@sts/platform';
import { TradeQueries } from '../../trade.queries';
import { CancelTradeUseCase, type CancelTradeOutcome } from './cancel-trade.use-case';

/**
 * POST /api/v1/trades/cancel-all: every live trade of the caller (pending to
 * recovering, oldest first) canceled as DELETE cancels it, one outcome per
 * trade; allowed during maintenance and under the kill switch, as DELETE is.
 * A trade that ended meanwhile is DELETE's no-op; one that vanished from the
 * caller's view cannot (trades are never deleted), and would be skipped.
 */
@Injectable()
export class CancelAllTradesUseCase {
  constructor(
    private readonly queries: TradeQueries,
    private readonly cancelTrade: CancelTradeUseCase,
  ) {}

  async execute(userId: string, correlationId: string): Promise<CancelTradeOutcome[]> {
    const outcomes: CancelTradeOutcome[] = [];
    for (const tradeId of await this.queries.liveIds(userId)) {
      try {
        outcomes.push(await this.cancelTrade.execute(userId, tradeId, correlationId));
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'trade_not_found')) {
          throw error;
        }
      }
    }
    return outcomes;
  }
}
