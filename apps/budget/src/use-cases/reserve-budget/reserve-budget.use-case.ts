import { Inject, Injectable } from '@nestjs/common';
import type { BudgetReserveRequest, BudgetReserveResult } from '@sts/contracts';
import type { Logger } from '@sts/platform';
import { BudgetRepository } from '../../budget.repository';
import { SharePropagation, type Tracing } from '../../shares/share-propagation';
import { LOGGER } from '../../tokens';
import { VenueTerms } from '../../venue-terms';
import { RebuildBudgetsUseCase } from '../rebuild-budgets/rebuild-budgets.use-case';

/**
 * A new trade asks for its shares: floor(limit / (holders + 1)) on its maker
 * account and, where the hedge venue shares its limit, on its hedge account.
 * Refused, with nothing changed, when either share would fall under the
 * venue's min_trade_budget.
 */
@Injectable()
export class ReserveBudgetUseCase {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly readiness: RebuildBudgetsUseCase,
    private readonly propagation: SharePropagation,
    private readonly terms: VenueTerms,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(request: BudgetReserveRequest, tracing: Tracing): Promise<BudgetReserveResult> {
    const tradeId = request.trade_id;
    const maker = this.terms.of(request.maker);
    const hedge = this.terms.hedgeHolds(request.hedge) ? this.terms.of(request.hedge) : null;
    const outcome = await this.readiness.whenReady(() =>
      this.repository.reserve(tradeId, maker, hedge, Date.now(), false),
    );
    const log = this.logger.child({ trade_id: tradeId, correlation_id: tracing.correlationId });
    switch (outcome.kind) {
      case 'granted':
        this.propagation.announce(outcome.changes, 'reserved', tradeId, tracing);
        log.info(
          {
            rate_budget: outcome.shares.maker.share,
            hedge_rate_budget: outcome.shares.hedge?.share,
          },
          'rate budget reserved',
        );
        return { outcome: 'granted', trade_id: tradeId, ...outcome.shares };
      case 'existing':
        return { outcome: 'granted', trade_id: tradeId, ...outcome.shares };
      case 'refused': {
        const account = outcome.role === 'maker' ? maker : hedge!;
        log.info(
          { role: outcome.role, venue: account.venue, holders: outcome.holders },
          'rate budget refused',
        );
        return {
          outcome: 'refused',
          trade_id: tradeId,
          role: outcome.role,
          venue: account.venue,
          wallet: account.wallet,
          limit: account.limit,
          holders: outcome.holders,
          min_trade_budget: account.min,
        };
      }
      case 'conflict':
        return {
          outcome: 'failed',
          code: 'conflict',
          message: `trade ${tradeId} already holds budget on other accounts`,
        };
    }
  }
}
