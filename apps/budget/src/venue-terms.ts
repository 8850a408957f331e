import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount } from '@sts/contracts';
import type { VenueRegistry } from '@sts/domain';
import type { AccountTerms } from '@sts/budget-store';
import { VENUES } from './tokens';

/** What the venue registry says about an account's limit and who holds it. */
@Injectable()
export class VenueTerms {
  constructor(@Inject(VENUES) private readonly venues: VenueRegistry) {}

  of(account: BudgetAccount): AccountTerms {
    const venue = this.venues[account.venue];
    return { ...account, limit: venue.rateLimitPerS, min: venue.minTradeBudget };
  }

  /** The hedge leg holds budget only where hedging spends the same per-account limit. */
  hedgeHolds(account: BudgetAccount): boolean {
    return this.venues[account.venue].sharedAccountLimit;
  }
}
