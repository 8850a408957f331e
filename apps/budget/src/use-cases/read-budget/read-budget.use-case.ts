import { Injectable } from '@nestjs/common';
import type {
  BudgetAccount,
  BudgetAccountResult,
  BudgetGetRequest,
  BudgetGetResult,
} from '@sts/contracts';
import { BudgetRepository } from '../../budget.repository';
import { VenueTerms } from '../../venue-terms';
import { RebuildBudgetsUseCase } from '../rebuild-budgets/rebuild-budgets.use-case';

/** Read side: a trade's shares (workers converge with it) and an account's division. */
@Injectable()
export class ReadBudgetUseCase {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly readiness: RebuildBudgetsUseCase,
    private readonly terms: VenueTerms,
  ) {}

  async trade(request: BudgetGetRequest): Promise<BudgetGetResult> {
    const lookup = await this.readiness.whenReady(() =>
      this.repository.readTrade(request.trade_id),
    );
    if (lookup.kind === 'not_found') {
      return { outcome: 'not_found', trade_id: request.trade_id };
    }
    return {
      outcome: 'found',
      trade_id: request.trade_id,
      maker: lookup.maker,
      hedge: lookup.hedge,
    };
  }

  async account(account: BudgetAccount): Promise<BudgetAccountResult> {
    const terms = this.terms.of(account);
    const lookup = await this.readiness.whenReady(() => this.repository.readAccount(terms));
    const { state, venueHolding } = lookup;
    const venueHeld = venueHolding.venueHolders > 0;
    return {
      outcome: 'found',
      venue: account.venue,
      wallet: account.wallet,
      limit: state?.limit ?? terms.limit,
      min_trade_budget: state?.min ?? terms.min,
      share: state?.share ?? 0,
      holders: (state?.holders ?? []).map((h) => ({ trade_id: h.tradeId, role: h.role })),
      version: state?.version ?? 0,
      // The limit the shares were divided by while anyone holds the venue; the registry's otherwise.
      venue_limit: venueHeld ? venueHolding.venueLimit : terms.venueLimit,
      venue_holders: venueHolding.venueHolders,
      egress: state?.egress ?? terms.egress,
    };
  }
}
