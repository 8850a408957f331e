import { VenueSetupError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';

/** ccxt's Lighter instance as the tier read uses it: its account and its private GET. */
type LighterLimitsReader = CcxtExchangeLike & {
  options: Record<string, unknown>;
  privateGetAccountLimits(params: Record<string, unknown>): Promise<Record<string, unknown>>;
};

/**
 * The account's tier as Lighter answers it: `GET /api/v1/accountLimits`
 * with the auth token (ccxt's `privateGetAccountLimits`), `user_tier`
 * (lighter-python `AccountLimits`; `changeAccountTier` takes "premium").
 * The signer must be loaded first (ccxt loads it on the first private read).
 */
export async function lighterTier(exchange: CcxtExchangeLike): Promise<string> {
  const reader = exchange as LighterLimitsReader;
  const limits = await reader.privateGetAccountLimits({
    account_index: reader.options['accountIndex'],
  });
  return String(limits['user_tier'] ?? '').toLowerCase();
}

/**
 * A Standard account is refused, not budgeted by its own limit: Standard
 * gets 60 requests a minute for orders and reads together (`trades` 40),
 * one a second, under Lighter's `min_trade_budget` of 2 in the venue
 * registry, and the registry's limits (`rate_limit_per_s` 40, the per-pool
 * costs) are Premium's, one per venue: budgeting one account by another
 * tier's limit would need a limit per account the budget service does not
 * keep. A quoting trade does not fit in one request a second anyway (a
 * requote is a cancel and a placement, a look-up two reads), so the trade
 * is rejected at once with the tier named, and the operator switches the
 * account (`changeAccountTier`, with no open orders or positions).
 */
export function refuseStandardTier(tier: string): void {
  if (tier === 'standard') {
    throw new VenueSetupError(
      'lighter',
      "the account is on Lighter's Standard tier (60 requests a minute for orders and reads together), " +
        'too few for one quoting trade; the service trades Premium accounts only: switch the account ' +
        'to Premium (changeAccountTier) with no open orders or positions',
    );
  }
}
