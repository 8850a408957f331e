import type { RebuildPlan } from './budget-types';
import { KEYS } from './redis-scripts';
import { accountId, divisionOf } from './venue-division';
import { poolOf } from './venue-pools';

/**
 * rebuild.lua's keys and arguments: the leftover keys of an earlier state to
 * delete (`stale`), then the plan's accounts with their shares (divided here,
 * by venue-division.ts), its pools (venue@egress) and its trades, in the order the script
 * reads them.
 */
export function rebuildCall(
  plan: RebuildPlan,
  stale: string[],
  nowMs: number,
): { keys: string[]; args: Array<string | number> } {
  const division = divisionOf(plan.accounts);
  const keys = [
    KEYS.ready,
    KEYS.version,
    KEYS.accounts,
    KEYS.trades,
    ...stale,
    ...plan.accounts.flatMap((a) => [KEYS.account(a), KEYS.holders(a)]),
    ...division.venues.flatMap((v) => [KEYS.venue(v.pool), KEYS.venueWallets(v.pool)]),
    ...plan.trades.map((t) => KEYS.trade(t.tradeId)),
  ];
  const encoded = JSON.stringify({
    stale: stale.length,
    accounts: plan.accounts.map((a) => ({
      venue: a.venue,
      wallet: a.wallet,
      pool: poolOf(a),
      limit: a.limit,
      min: a.min,
      share: division.shares.get(accountId(a)),
      // No pace: left out, as the limit below.
      ...paceField(division.paces.get(accountId(a)) ?? null),
      holders: a.holders.map((h) => `${h.tradeId}|${h.role}`),
    })),
    // No limit: the field is left out (cjson reads a JSON null as a true value).
    venues: division.venues.map(({ limit, ...venue }) =>
      limit === null ? venue : { ...venue, limit },
    ),
    trades: plan.trades.map((t) => ({
      id: t.tradeId,
      maker_venue: t.maker.venue,
      maker_wallet: t.maker.wallet,
      hedge_venue: t.hedge?.venue ?? '',
      hedge_wallet: t.hedge?.wallet ?? '',
    })),
  });
  return { keys, args: [nowMs, encoded] };
}

const paceField = (pace: number | null): { pace?: number } => (pace === null ? {} : { pace });
