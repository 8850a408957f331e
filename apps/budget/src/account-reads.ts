import type { BudgetAccount, HolderShare } from '@sts/contracts';
import type { Redis } from '@sts/platform';
import {
  execResult,
  guardRedis,
  KEYS,
  NOT_READY,
  egressOfPool,
  holderShareOf,
  paceFrom,
  parseHolder,
  poolOf,
  type AccountLookup,
  type AccountShareCount,
  type AccountState,
  type AccountTerms,
  type HolderRef,
  type VenueHolding,
} from '@sts/budget-store';

/**
 * An account's terms, share, version and holders oldest first, with its
 * pool's per-IP limit and holder count (operators, tests): the pool of its
 * egress by the plan (`account.egress`), or the one it is still stored in
 * when the plan moved it and no sweep has yet.
 */
export async function readAccount(redis: Redis, account: AccountTerms): Promise<AccountLookup> {
  const results = await guardRedis(() =>
    redis
      .multi()
      .exists(KEYS.ready)
      .hgetall(KEYS.account(account))
      .smembers(KEYS.holders(account))
      .hmget(KEYS.venue(poolOf(account)), 'limit', 'holders')
      .exec(),
  );
  if (execResult<number>(results, 0) === 0) {
    return NOT_READY;
  }
  const hash = execResult<Record<string, string>>(results, 1);
  const members = execResult<string[]>(results, 2);
  const stored = hash['limit'] && members.length > 0 ? (hash['pool'] ?? account.venue) : undefined;
  const venueHolding = venueHoldingOf(
    stored !== undefined && stored !== poolOf(account)
      ? await guardRedis(() => redis.hmget(KEYS.venue(stored), 'limit', 'holders'))
      : execResult<Array<string | null>>(results, 3),
  );
  if (!hash['limit'] || members.length === 0) {
    return { kind: 'found', state: null, venueHolding };
  }
  const state: AccountState = {
    venue: account.venue,
    wallet: account.wallet,
    egress: egressOfPool(stored ?? '') ?? account.egress,
    limit: Number(hash['limit']),
    min: Number(hash['min']),
    venueLimit: venueHolding.venueLimit,
    venueMin: account.venueMin,
    share: Number(hash['share']),
    pace: paceFrom(hash['pace']),
    version: Number(hash['seq']),
    holders: await inJoinOrder(redis, members.map(parseHolder)),
  };
  return { kind: 'found', state, venueHolding };
}

function venueHoldingOf([venueLimit, venueHolders]: Array<string | null>): VenueHolding {
  return {
    venueLimit: venueLimit ? Number(venueLimit) : null,
    venueHolders: Number(venueHolders ?? 0),
  };
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
          ['hmget', KEYS.account(a), 'share', 'seq', 'pace'],
          ['scard', KEYS.holders(a)],
        ]),
      )
      .exec(),
  );
  return accounts.flatMap((account, i) => {
    const [share, version, pace] = execResult<Array<string | null>>(results, 2 * i);
    const holderCount = execResult<number>(results, 2 * i + 1);
    return share !== null && version !== null && holderCount > 0
      ? [
          {
            venue: account.venue,
            wallet: account.wallet,
            share: Number(share),
            version: Number(version),
            pace: paceFrom(pace),
            holderCount,
          },
        ]
      : [];
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

/** The fields of an account's hash `shareOf` reads, in its order. */
export const SHARE_FIELDS = ['share', 'seq', 'pace'] as const;

/** An account's share, version and pace as `HMGET share seq pace` answers them; null when it holds none. */
export function shareOf(
  account: BudgetAccount,
  [share, version, pace]: Array<string | null>,
): HolderShare | null {
  return share === null || version === null
    ? null
    : holderShareOf(account, Number(share), Number(version), paceFrom(pace));
}
