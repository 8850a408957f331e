import { Injectable, Logger } from '@nestjs/common';
import { BudgetClient } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import { RateBudgets } from './rate-budgets';

/** RateBudgets over the budget service (apps/budget) on NATS. */
@Injectable()
export class BudgetServiceRateBudgets extends RateBudgets {
  private readonly logger = new Logger('budgets');

  constructor(private readonly client: BudgetClient) {
    super();
  }

  async reserve(request: Parameters<RateBudgets['reserve']>[0]) {
    const budget = await this.client.reserve(
      {
        tradeId: request.tradeId,
        maker: { venue: request.maker.venue as VenueId, wallet: request.maker.wallet },
        hedge: { venue: request.hedge.venue as VenueId, wallet: request.hedge.wallet },
      },
      { correlationId: request.correlationId },
    );
    return { rateBudget: budget.rateBudget, hedgeRateBudget: budget.hedgeRateBudget };
  }

  async release(tradeId: string, reason: 'create_failed' | 'canceled'): Promise<void> {
    await this.client.release(tradeId, reason).catch((error: unknown) => {
      this.logger.warn(
        { trade_id: tradeId, err: error },
        'budget release failed; the sweeper reclaims it',
      );
    });
  }
}
