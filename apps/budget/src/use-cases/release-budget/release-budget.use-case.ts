import { Inject, Injectable } from '@nestjs/common';
import type { BudgetChangeCause, BudgetReleaseRequest, BudgetReleaseResult } from '@sts/contracts';
import type { Logger } from '@sts/platform';
import { BudgetRepository } from '../../budget.repository';
import { SharePropagation, type Tracing } from '../../shares/share-propagation';
import { LOGGER } from '../../tokens';
import { RebuildBudgetsUseCase } from '../rebuild-budgets/rebuild-budgets.use-case';

/** A trade gives its shares back; the other holders' shares grow at once. */
@Injectable()
export class ReleaseBudgetUseCase {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly readiness: RebuildBudgetsUseCase,
    private readonly propagation: SharePropagation,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(request: BudgetReleaseRequest, tracing: Tracing): Promise<BudgetReleaseResult> {
    const released = await this.release(request.trade_id, 'released', tracing);
    this.logger.info(
      {
        trade_id: request.trade_id,
        correlation_id: tracing.correlationId,
        reason: request.reason,
        released,
      },
      released ? 'rate budget released' : 'release of a trade holding no budget',
    );
    return { outcome: 'released', trade_id: request.trade_id, released };
  }

  /** Also used by the sweeper, with cause `swept`. Resolves false when nothing was held. */
  async release(
    tradeId: string,
    cause: BudgetChangeCause,
    tracing: Tracing = {},
  ): Promise<boolean> {
    const outcome = await this.readiness.whenReady(() => this.repository.release(tradeId));
    if (outcome.kind === 'not_found') {
      return false;
    }
    this.propagation.announce(outcome.changes, cause, tracing);
    return true;
  }
}
