import {
  BUDGET_SHARES_CHANGED,
  budgetSharesSubject,
  type BudgetSharesChanged,
  type ShareHolder,
} from '@sts/budget-client';
import { encodeEnvelope, envelope, type BudgetChangeCause } from '@sts/contracts';
import type { NatsConnection } from '@sts/platform';
import type { AccountChange } from './budget-types';

/** An account's state as one `budget.shares_changed` names it. */
export function sharesChangedOf(
  account: Pick<AccountChange, 'venue' | 'wallet' | 'version' | 'holders'>,
  share: number,
  cause: BudgetChangeCause,
  left: ShareHolder[],
): BudgetSharesChanged {
  return {
    venue: account.venue,
    wallet: account.wallet,
    share,
    version: account.version,
    cause,
    holders: account.holders.map((h) => ({ trade_id: h.tradeId, role: h.role })),
    left,
  };
}

/**
 * The messages of one change, in the order they must go out: accounts whose
 * share shrinks before accounts whose share grows, so no listener ever sees an
 * account over its limit; within an account the trade that joined last.
 * `tradeId` is the trade whose reserve or release caused the change.
 */
export function sharesChangedMessages(
  changes: AccountChange[],
  cause: BudgetChangeCause,
  tradeId: string | null,
): BudgetSharesChanged[] {
  const shrinking: BudgetSharesChanged[] = [];
  const rest: BudgetSharesChanged[] = [];
  for (const change of changes) {
    const stillHolds = change.holders.some((h) => h.tradeId === tradeId && h.role === change.role);
    const left: ShareHolder[] =
      tradeId && change.role && !stillHolds ? [{ trade_id: tradeId, role: change.role }] : [];
    // The trade that joined goes last: expanded per holder, the others shrink before it grows.
    const joined = (h: { tradeId: string }) => (h.tradeId === tradeId ? 1 : 0);
    const holders = [...change.holders].sort((a, b) => joined(a) - joined(b));
    (change.after < change.before ? shrinking : rest).push(
      sharesChangedOf({ ...change, holders }, change.after, cause, left),
    );
  }
  return [...shrinking, ...rest];
}

/**
 * The changes of several reserves (one batch) as one change per account:
 * from the share before the first to the share after the last, its holders
 * as the last left them with the trades that joined last, in the order they
 * joined (`joined`), so a listener expanding it per holder shrinks the others
 * before it counts a newcomer.
 */
export function mergedChanges(changes: AccountChange[], joined: string[]): AccountChange[] {
  const byAccount = new Map<string, AccountChange[]>();
  for (const change of changes) {
    const key = `${change.venue}:${change.wallet}`;
    const list = byAccount.get(key);
    if (list) {
      list.push(change);
    } else {
      byAccount.set(key, [change]);
    }
  }
  const rank = new Map(joined.map((tradeId, i) => [tradeId, i]));
  return [...byAccount.values()].map((list) => {
    list.sort((a, b) => a.version - b.version);
    const first = list[0]!;
    const last = list[list.length - 1]!;
    const holders = [...last.holders].sort(
      (a, b) => (rank.get(a.tradeId) ?? -1) - (rank.get(b.tradeId) ?? -1),
    );
    return { ...last, before: first.before, holders };
  });
}

/** Publishes one `budget.shares_changed` (core NATS: listeners converge through budget.get and the sweep). */
export function publishSharesChanged(
  nc: NatsConnection,
  natsPrefix: string,
  change: BudgetSharesChanged,
  tracing: { correlationId?: string; causationId?: string },
): void {
  nc.publish(
    budgetSharesSubject(natsPrefix, change),
    encodeEnvelope(envelope(BUDGET_SHARES_CHANGED, change, tracing)),
  );
}
