import { Injectable } from '@nestjs/common';
import type { BudgetCumulativeRequest, BudgetCumulativeResult } from '@sts/contracts';
import { BudgetRepository } from '../../budget.repository';
import { VenueTerms } from '../../venue-terms';

/**
 * A worker's report on an account's cumulative request budget (Hyperliquid's
 * address budget, Lighter's volume quota): the newest reading of all workers
 * is kept with the spends reported since, and answered with the account's
 * request limit (how fast it can spend what is not reported yet) and the
 * trades that hedge there. The worker decides from it whether its trade may
 * rest a maker order (`quotaHold` in @sts/domain). It needs no rebuilt state:
 * the readings live beside the shares, and a reading lost with Redis comes
 * back with the next report.
 */
@Injectable()
export class ReportCumulativeUseCase {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly terms: VenueTerms,
  ) {}

  async execute(request: BudgetCumulativeRequest): Promise<BudgetCumulativeResult> {
    const account = { venue: request.venue, wallet: request.wallet };
    const kept = await this.repository.reportCumulative(account, request.reading, request.spent);
    return {
      outcome: 'ok',
      ...account,
      quota: kept && {
        left: kept.left,
        read_at_ms: kept.readAtMs,
        spent: kept.spent,
        spend_per_s: this.terms.of(account).limit,
        hedge_holders: kept.hedgeHolders,
      },
    };
  }
}
