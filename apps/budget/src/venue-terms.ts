import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount } from '@sts/contracts';
import { egressOf, type VenueId, type VenueRegistry } from '@sts/domain';
import type { AccountTerms, VenueLimits } from '@sts/budget-store';
import { BudgetSettings } from './config/budget.settings';
import { BUDGET_SETTINGS, VENUES } from './tokens';

/** What the venue registry and the egress plan say about an account's limits. */
@Injectable()
export class VenueTerms {
  constructor(
    @Inject(VENUES) private readonly venues: VenueRegistry,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
  ) {}

  /**
   * A venue's limits: per account (`rateLimitPerS`) and, on a live venue with
   * per-IP limits, for every account of the venue on one egress address
   * together (`ipRateLimitPerS`).
   */
  ofVenue(venue: VenueId): VenueLimits {
    const config = this.venues[venue];
    return {
      venue,
      limit: config.rateLimitPerS,
      min: config.minTradeBudget,
      venueLimit: config.ipRateLimitPerS,
      venueMin: config.minIpSharePerMin,
    };
  }

  /** An account's limits and the egress its requests leave from (the plan's, as every service computes it). */
  of(account: BudgetAccount): AccountTerms {
    const egress = egressOf(this.settings.egressPlan, account.venue, account.wallet).id;
    return { ...this.ofVenue(account.venue), wallet: account.wallet, egress };
  }

  /** The plan's egress ids. */
  egresses(): string[] {
    return this.settings.egressPlan.egresses.map((egress) => egress.id);
  }

  /** Whether refusals name their egress: only where there is more than one to tell apart. */
  severalEgresses(): boolean {
    return this.settings.egressPlan.egresses.length > 1;
  }

  /** The hedge leg holds budget only where hedging spends the same per-account limit. */
  hedgeHolds(account: BudgetAccount): boolean {
    return this.venues[account.venue].sharedAccountLimit;
  }
}
