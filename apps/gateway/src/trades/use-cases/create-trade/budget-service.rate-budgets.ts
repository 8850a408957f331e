import { Injectable, Logger } from '@nestjs/common';
import { BudgetClient, BudgetUnavailableError } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import { AppError, NatsLink, type Dependency } from '@sts/platform';
import { RateBudgets } from './rate-budgets';

/**
 * The budget service could not reserve: 503 service_unavailable naming what
 * is gone. Our own NATS link down is `nats` (answered at once, no request
 * sent); no answer in time is the `budget_service`; an answer saying it
 * cannot reserve is its `redis` (or its rebuild from Postgres after one).
 */
const budgetUnavailable = (dependency: Dependency, detail: string): AppError =>
  new AppError(
    'service_unavailable',
    `rate budgets cannot be reserved right now (${detail}); retry`,
    {
      reason: dependency,
    },
  );

/** RateBudgets over the budget service (apps/budget) on NATS. */
@Injectable()
export class BudgetServiceRateBudgets extends RateBudgets {
  private readonly logger = new Logger('budgets');

  constructor(
    private readonly client: BudgetClient,
    private readonly nats: NatsLink,
  ) {
    super();
  }

  async reserve(request: Parameters<RateBudgets['reserve']>[0]) {
    if (!this.nats.connected) {
      throw budgetUnavailable('nats', 'NATS is not connected');
    }
    try {
      const budget = await this.client.reserve(
        {
          tradeId: request.tradeId,
          maker: { venue: request.maker.venue as VenueId, wallet: request.maker.wallet },
          hedge: { venue: request.hedge.venue as VenueId, wallet: request.hedge.wallet },
        },
        { correlationId: request.correlationId },
      );
      return {
        rateBudget: budget.rateBudget,
        hedgeRateBudget: budget.hedgeRateBudget,
        version: budget.maker.version,
        hedgeVersion: budget.hedge?.version ?? 0,
      };
    } catch (error) {
      if (!(error instanceof BudgetUnavailableError)) {
        throw error;
      }
      if (!this.nats.connected) {
        throw budgetUnavailable('nats', 'NATS is not connected');
      }
      // A request that got no answer has its NATS error as cause; a refusal from the service has none.
      throw error.cause !== undefined
        ? budgetUnavailable('budget_service', 'the budget service did not answer')
        : budgetUnavailable('redis', 'the budget service cannot reach its store');
    }
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
