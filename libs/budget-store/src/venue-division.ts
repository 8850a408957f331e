import type { AccountTerms, HolderRef } from './budget-types';
import { poolOf } from './venue-pools';

/**
 * A pool holder's pace, as `lua/venue-share.lua` computes it: its share of
 * the venue's per-IP term in tokens a minute, floor(venueLimit * 60 /
 * poolHolders), where poolHolders counts every holder of every account of
 * the venue on the account's egress (its pool: the venue counts a per-IP
 * limit per source address). Null without a per-IP limit.
 */
export function paceOf(
  terms: Pick<AccountTerms, 'venueLimit'>,
  poolHolders: number,
): number | null {
  return terms.venueLimit === null || poolHolders <= 0
    ? null
    : Math.floor((terms.venueLimit * 60) / poolHolders);
}

/**
 * The division rule, as every script applies it: each holder of an account
 * holds min(floor(limit / holders), max(1, floor(pace / 60))) tokens a second
 * (paceOf); a venue without a per-IP limit: the account's term.
 */
export function shareOf(
  terms: Pick<AccountTerms, 'limit' | 'venueLimit'>,
  holders: number,
  poolHolders: number,
): number {
  const accountShare = Math.floor(terms.limit / holders);
  const pace = paceOf(terms, poolHolders);
  return pace === null ? accountShare : Math.min(accountShare, Math.max(1, Math.floor(pace / 60)));
}

export type HeldAccount = AccountTerms & { holders: HolderRef[] };

/** A pool as a rebuild writes it: the venue's per-IP limit, the pool's holders and its wallets. */
export interface VenueDivision {
  /** `<venue>@<egress>` (poolOf). */
  pool: string;
  limit: number | null;
  holders: number;
  wallets: string[];
}

/** A whole state's division (a rebuild): every account's share and pace, and each pool's count. */
export interface Division {
  shares: Map<string, number>;
  paces: Map<string, number | null>;
  venues: VenueDivision[];
}

export const accountId = (account: { venue: string; wallet: string }): string =>
  `${account.venue}:${account.wallet}`;

export function divisionOf(accounts: HeldAccount[]): Division {
  const pools = new Map<string, VenueDivision>();
  for (const account of accounts) {
    const name = poolOf(account);
    const pool = pools.get(name) ?? {
      pool: name,
      limit: account.venueLimit,
      holders: 0,
      wallets: [],
    };
    pool.holders += account.holders.length;
    pool.wallets.push(account.wallet);
    pools.set(name, pool);
  }
  const shares = new Map(
    accounts.map((account) => [
      accountId(account),
      shareOf(account, account.holders.length, pools.get(poolOf(account))!.holders),
    ]),
  );
  const paces = new Map(
    accounts.map((account) => [
      accountId(account),
      paceOf(account, pools.get(poolOf(account))!.holders),
    ]),
  );
  return { shares, paces, venues: [...pools.values()] };
}
