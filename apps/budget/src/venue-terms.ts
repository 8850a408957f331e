import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount } from '@sts/contracts';
import type { VenueId, VenueRegistry } from '@sts/domain';
import type { AccountTerms, VenueLimits } from '@sts/budget-store';
import { VENUES } from './tokens';

/** What the venue registry says about an account's limits and who holds it. */
@Injectable()
export class VenueTerms {
  constructor(@Inject(VENUES) private readonly venues: VenueRegistry) {}

  /**
   * A venue's limits: per account (`rateLimitPerS`) and, on a live venue with
   * per-IP limits, for every account of the venue together (`ipRateLimitPerS`).
   */
  ofVenue(venue: VenueId): VenueLimits {
    const config = this.venues[venue];
    return {
      venue,
      limit: config.rateLimitPerS,
      min: config.minTradeBudget,
      venueLimit: config.ipRateLimitPerS,
    };
  }

  of(account: BudgetAccount): AccountTerms {
    return { ...this.ofVenue(account.venue), wallet: account.wallet };
  }

  /** The hedge leg holds budget only where hedging spends the same per-account limit. */
  hedgeHolds(account: BudgetAccount): boolean {
    return this.venues[account.venue].sharedAccountLimit;
  }
}
