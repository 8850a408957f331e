/**
 * Lighter's account tiers (apidocs.lighter.xyz "Account Types", LTR-AT): an L1
 * address is Standard (the default on the venue: 60 requests a minute, no
 * fees, 200-300 ms latency) or Premium (opt-in through `changeAccountTier`:
 * weighted limits, fees, the volume quota). The venue answers the tier in
 * `GET /api/v1/accountLimits?account_index=` (with the auth token):
 * `user_tier` and `user_tier_name` (lighter-python `AccountLimits`, whose
 * `changeAccountTier` takes `new_tier: "premium"`). The account answer's
 * `account_type` is not the tier: it is the account's kind (lighter-python
 * `DetailedAccountAccountTypeEnum`: Master 0, Sub 1, PublicPool 2, ...).
 *
 * The dialect plays Premium for every address (the service trades nothing
 * else, lighter-rate-limits.ts); a test makes one Standard with
 * `POST /dialects/lighter/_sim/account-tier {l1_address, tier}`.
 */
export type LighterTier = 'premium' | 'standard';

export const LIGHTER_TIERS: readonly LighterTier[] = ['premium', 'standard'];

/** Fee ticks (hundredths of a basis point) at 0 staked LIT, and the tier's name, as LTR-AT lists them. */
const TIER_TERMS: Record<
  LighterTier,
  { name: string; makerFeeTick: number; takerFeeTick: number }
> = {
  premium: { name: 'Premium', makerFeeTick: 40, takerFeeTick: 280 },
  standard: { name: 'Standard', makerFeeTick: 0, takerFeeTick: 0 },
};

export class LighterAccountTiers {
  private readonly tiers = new Map<string, LighterTier>();

  set(wallet: string, tier: LighterTier): void {
    this.tiers.set(wallet.toLowerCase(), tier);
  }

  of(wallet: string): LighterTier {
    return this.tiers.get(wallet.toLowerCase()) ?? 'premium';
  }

  /**
   * The `accountLimits` answer's fields (lighter-python `AccountLimits`). The
   * pool fields (`max_llp_*`, `can_create_public_pool`) and the stakes are
   * the simulator's: it has no pools and no LIT.
   */
  limitsView(wallet: string): Record<string, unknown> {
    const tier = this.of(wallet);
    const terms = TIER_TERMS[tier];
    return {
      max_llp_percentage: 0,
      user_tier: tier,
      can_create_public_pool: false,
      max_llp_amount: '0',
      current_maker_fee_tick: terms.makerFeeTick,
      current_taker_fee_tick: terms.takerFeeTick,
      effective_lit_stakes: '0',
      leased_lit: '0',
      user_tier_name: terms.name,
    };
  }
}
