import { Injectable, Logger } from '@nestjs/common';
import { BudgetClient, BudgetUnavailableError, type TradeBudget } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import { AppError, NatsLink, type Dependency } from '@sts/platform';
import { RateBudgets, type GrantedBudgets, type ReservationRequest } from './rate-budgets';

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

  /** One request for the group; the first create's correlation id carries it. */
  async reserveBatch(
    requests: ReservationRequest[],
    withinMs?: number,
  ): Promise<Array<GrantedBudgets | Error>> {
    this.assertLinked();
    let answers;
    try {
      answers = await this.client.reserveBatch(requests.map(reservationOf), {
        correlationId: requests[0]?.correlationId,
        ...(withinMs === undefined ? {} : { timeoutMs: withinMs }),
      });
    } catch (error) {
      throw this.unavailable(error);
    }
    return answers.map((answer) =>
      answer instanceof Error ? this.unavailable(answer) : grantedOf(answer),
    );
  }

  private assertLinked(): void {
    if (!this.nats.connected) {
      throw budgetUnavailable('nats', 'NATS is not connected');
    }
  }

  /** A BudgetUnavailableError as the 503 naming what is gone; anything else as it is. */
  private unavailable(error: unknown): Error {
    if (!(error instanceof BudgetUnavailableError)) {
      return error as Error;
    }
    if (!this.nats.connected) {
      return budgetUnavailable('nats', 'NATS is not connected');
    }
    // A request that got no answer has its NATS error as cause; a refusal from the service has none.
    return error.cause !== undefined
      ? budgetUnavailable('budget_service', 'the budget service did not answer')
      : budgetUnavailable('redis', 'the budget service cannot reach its store');
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

function reservationOf(request: ReservationRequest) {
  return {
    tradeId: request.tradeId,
    maker: { venue: request.maker.venue as VenueId, wallet: request.maker.wallet },
    hedge: { venue: request.hedge.venue as VenueId, wallet: request.hedge.wallet },
  };
}

function grantedOf(budget: TradeBudget): GrantedBudgets {
  return {
    rateBudget: budget.rateBudget,
    hedgeRateBudget: budget.hedgeRateBudget,
    version: budget.maker.version,
    hedgeVersion: budget.hedge?.version ?? 0,
  };
}
