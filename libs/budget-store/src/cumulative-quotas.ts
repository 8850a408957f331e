import type { BudgetAccount, CumulativeReading } from '@sts/contracts';
import { guardRedis } from './reserve-shares';
import { KEYS, LuaScript } from './redis-scripts';
import type { Redis } from '@sts/platform';

const script = new LuaScript('cumulative');

/** An account's cumulative hash (same hash tag as every budget key). */
export const cumulativeKey = (account: BudgetAccount): string =>
  `{budget}:cumulative:${account.venue}:${account.wallet}`;

/**
 * How long an account's cumulative budget is kept without a report: a day.
 * The budgets never reset on the venue, so a reading stays the best word
 * long after; a day bounds the keys of accounts no longer traded.
 */
export const CUMULATIVE_TTL_MS = 86_400_000;

/** An account's cumulative budget as kept: the newest reading, the spends since, who hedges there. */
export interface KeptCumulative {
  left: number;
  readAtMs: number;
  spent: number;
  hedgeHolders: number;
}

/**
 * Records one worker's report on an account (a newer reading replaces the
 * kept one; spends add up) and answers what is kept, or null while no
 * worker has ever reported a reading of it. Atomic (cumulative.lua).
 */
export async function reportCumulative(
  redis: Redis,
  account: BudgetAccount,
  reading: CumulativeReading | null,
  spent: number,
): Promise<KeptCumulative | null> {
  const reply = (await guardRedis(() =>
    script.run(
      redis,
      [cumulativeKey(account), KEYS.holders(account)],
      [reading ? 1 : 0, reading?.left ?? 0, reading?.read_at_ms ?? 0, spent, CUMULATIVE_TTL_MS],
    ),
  )) as [string, string, string, number] | null;
  if (!reply) {
    return null;
  }
  const [left, readAt, spentSince, hedgeHolders] = reply;
  return {
    left: Number(left),
    readAtMs: Number(readAt),
    spent: Number(spentSince),
    hedgeHolders: Number(hedgeHolders),
  };
}
