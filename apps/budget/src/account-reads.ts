import type { BudgetAccount, HolderShare } from '@sts/contracts';
import type { Redis } from '@sts/platform';
import {
  execResult,
  guardRedis,
  KEYS,
  NOT_READY,
  parseHolder,
  type AccountLookup,
  type AccountShareCount,
  type AccountState,
  type HolderRef,
  type VenueHolding,
} from '@sts/budget-store';

/**
 * An account's terms, share, version and holders oldest first, with its
 * venue's per-IP limit and holder count (operators, tests).
 */
export async function readAccount(redis: Redis, account: BudgetAccount): Promise<AccountLookup> {
  const results = await guardRedis(() =>
    redis
      .multi()
      .exists(KEYS.ready)
      .hgetall(KEYS.account(account))
      .smembers(KEYS.holders(account))
      .hmget(KEYS.venue(account.venue), 'limit', 'holders')
      .exec(),
  );
  if (execResult<number>(results, 0) === 0) {
    return NOT_READY;
  }
  const hash = execResult<Record<string, string>>(results, 1);
  const members = execResult<string[]>(results, 2);
  const [venueLimit, venueHolders] = execResult<Array<string | null>>(results, 3);
  const venueHolding: VenueHolding = {
    venueLimit: venueLimit ? Number(venueLimit) : null,
    venueHolders: Number(venueHolders ?? 0),
  };
  if (!hash['limit'] || members.length === 0) {
    return { kind: 'found', state: null, venueHolding };
  }
  const state: AccountState = {
    venue: account.venue,
    wallet: account.wallet,
    limit: Number(hash['limit']),
    min: Number(hash['min']),
    venueLimit: venueHolding.venueLimit,
    share: Number(hash['share']),
    version: Number(hash['seq']),
    holders: await inJoinOrder(redis, members.map(parseHolder)),
  };
  return { kind: 'found', state, venueHolding };
}

/** The accounts' shares, versions and holder counts in one round trip; empty accounts left out. */
export async function readShareCounts(
  redis: Redis,
  accounts: BudgetAccount[],
): Promise<AccountShareCount[]> {
  if (accounts.length === 0) {
    return [];
  }
  // One transaction: each account's count matches its share.
  const results = await guardRedis(() =>
    redis
      .multi(
        accounts.flatMap((a) => [
          ['hmget', KEYS.account(a), 'share', 'seq'],
          ['scard', KEYS.holders(a)],
        ]),
      )
      .exec(),
  );
  return accounts.flatMap((account, i) => {
    const share = shareOf(account, execResult<Array<string | null>>(results, 2 * i));
    const holderCount = execResult<number>(results, 2 * i + 1);
    return share && holderCount > 0 ? [{ ...share, holderCount }] : [];
  });
}

/**
 * The holders oldest first (by the version of their reserve), as an account
 * read lists them; a set's own order is arbitrary.
 */
async function inJoinOrder(redis: Redis, holders: HolderRef[]): Promise<HolderRef[]> {
  const joined = await guardRedis(() =>
    redis.multi(holders.map((h) => ['hget', KEYS.trade(h.tradeId), 'joined'])).exec(),
  );
  // A trade released meanwhile, or held since before 'joined' existed, sorts first.
  const order = holders.map((holder, i) => ({
    holder,
    joined: Number(execResult<string | null>(joined, i) ?? 0),
  }));
  return order.sort((a, b) => a.joined - b.joined).map((entry) => entry.holder);
}

/** An account's share and version as `HMGET share seq` answers them; null when it holds none. */
export function shareOf(
  account: BudgetAccount,
  [share, version]: Array<string | null>,
): HolderShare | null {
  return share === null || version === null
    ? null
    : { ...account, share: Number(share), version: Number(version) };
}
