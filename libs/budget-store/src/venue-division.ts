import type { VenueId } from '@sts/domain';
import type { AccountTerms, HolderRef } from './budget-types';

/**
 * The division rule, as `lua/venue-share.lua` applies it in every script:
 * each holder of an account holds min(floor(limit / holders),
 * floor(venueLimit / venueHolders)), where venueHolders counts every holder
 * of every account of the venue (its per-IP limit is shared by every account
 * of the fleet's egress). A venue without a per-IP limit: the account's term.
 */
export function shareOf(
  terms: Pick<AccountTerms, 'limit' | 'venueLimit'>,
  holders: number,
  venueHolders: number,
): number {
  const accountShare = Math.floor(terms.limit / holders);
  return terms.venueLimit === null || venueHolders <= 0
    ? accountShare
    : Math.min(accountShare, Math.floor(terms.venueLimit / venueHolders));
}

export type HeldAccount = AccountTerms & { holders: HolderRef[] };

/** A venue as a rebuild writes it: its per-IP limit, holders and the wallets holding it. */
export interface VenueDivision {
  venue: VenueId;
  limit: number | null;
  holders: number;
  wallets: string[];
}

/** A whole state's division (a rebuild): every account's share, and each venue's count. */
export interface Division {
  shares: Map<string, number>;
  venues: VenueDivision[];
}

export const accountId = (account: { venue: string; wallet: string }): string =>
  `${account.venue}:${account.wallet}`;

export function divisionOf(accounts: HeldAccount[]): Division {
  const venues = new Map<VenueId, VenueDivision>();
  for (const account of accounts) {
    const venue = venues.get(account.venue) ?? {
      venue: account.venue,
      limit: account.venueLimit,
      holders: 0,
      wallets: [],
    };
    venue.holders += account.holders.length;
    venue.wallets.push(account.wallet);
    venues.set(account.venue, venue);
  }
  const shares = new Map(
    accounts.map((account) => [
      accountId(account),
      shareOf(account, account.holders.length, venues.get(account.venue)!.holders),
    ]),
  );
  return { shares, venues: [...venues.values()] };
}
