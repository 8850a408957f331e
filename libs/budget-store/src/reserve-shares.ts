import type { BudgetRole } from '@sts/contracts';
import { AppError, type Redis } from '@sts/platform';
import type { AccountTerms, ReserveOutcome } from './budget-types';
import { KEYS, SCRIPTS, type LuaScript } from './redis-scripts';
import { reserveOutcomeOf, unexpected } from './script-replies';

/** Runs a script; a Redis that cannot be reached is AppError `budget_unavailable`. */
export async function runScript(
  redis: Redis,
  script: LuaScript,
  keys: string[],
  args: Array<string | number>,
): Promise<unknown[]> {
  const reply = await guardRedis(() => script.run(redis, keys, args));
  if (!Array.isArray(reply)) {
    throw unexpected('script', reply);
  }
  return reply as unknown[];
}

export async function guardRedis<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new AppError('budget_unavailable', 'the budget store (Redis) is unreachable', {
      cause: error,
    });
  }
}

/** The keys every script of a trade takes first (reserve.lua, release.lua). */
export const tradeKeys = (tradeId: string): string[] => [
  KEYS.ready,
  KEYS.version,
  KEYS.accounts,
  KEYS.trades,
  KEYS.trade(tradeId),
];

export interface ReserveSharesRequest {
  tradeId: string;
  maker: AccountTerms;
  hedge: AccountTerms | null;
  nowMs: number;
  force: boolean;
}

/**
 * A trade's shares on its maker account and, where the hedge venue shares its
 * limit, its hedge account: reserve.lua, all or nothing, atomic against every
 * other reserve and release, re-dividing the other accounts of a pool (the
 * venue's accounts on one egress) whose per-IP share moves. `force` adopts a live trade without the minimum.
 */
export async function reserveShares(
  redis: Redis,
  request: ReserveSharesRequest,
): Promise<ReserveOutcome> {
  const { keys, args } = reserveCall(request);
  const reply = await runScript(redis, SCRIPTS.reserve, keys, args);
  return reserveOutcomeOf(reply, request.tradeId, request.maker, request.hedge);
}

/**
 * Several trades' reservations in one Redis round trip, each as reserveShares
 * would run it alone (atomic on its own, in the given order).
 */
export async function reserveSharesBatch(
  redis: Redis,
  requests: ReserveSharesRequest[],
): Promise<ReserveOutcome[]> {
  const replies = await guardRedis(() => SCRIPTS.reserve.runMany(redis, requests.map(reserveCall)));
  return replies.map((reply, i) => {
    if (!Array.isArray(reply)) {
      throw unexpected('script', reply);
    }
    const request = requests[i]!;
    return reserveOutcomeOf(reply, request.tradeId, request.maker, request.hedge);
  });
}

/** reserve.lua's keys and arguments for one trade. */
function reserveCall(request: ReserveSharesRequest): {
  keys: string[];
  args: Array<string | number>;
} {
  const { tradeId, maker, hedge } = request;
  const accounts = hedge ? [maker, hedge] : [maker];
  const roles: BudgetRole[] = ['maker', 'hedge'];
  return {
    keys: [...tradeKeys(tradeId), ...accounts.flatMap((a) => [KEYS.account(a), KEYS.holders(a)])],
    args: [
      tradeId,
      request.nowMs,
      request.force ? '1' : '0',
      ...accounts.flatMap((a, i) => [
        roles[i]!,
        a.venue,
        a.wallet,
        a.limit,
        a.min,
        a.venueLimit ?? '',
        a.egress,
        a.venueMin,
      ]),
    ],
  };
}
