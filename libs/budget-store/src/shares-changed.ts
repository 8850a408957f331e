import {
  BUDGET_SHARES_CHANGED,
  budgetSharesSubject,
  type BudgetSharesChanged,
  type ShareHolder,
} from '@sts/budget-client';
import { encodeEnvelope, envelope, type BudgetChangeCause } from '@sts/contracts';
import type { NatsConnection } from '@sts/platform';
import type { AccountChange, AccountShareCount, HolderRef } from './budget-types';

const named = (holders: HolderRef[]): ShareHolder[] =>
  holders.map((h) => ({ trade_id: h.tradeId, role: h.role }));

/** An account's change as one `budget.shares_changed` names it (its own cause first). */
export function sharesChangedOf(
  change: AccountChange,
  cause: BudgetChangeCause,
): BudgetSharesChanged {
  return {
    venue: change.venue,
    wallet: change.wallet,
    share: change.after,
    ...(change.pace === null ? {} : { pace_per_min: change.pace }),
    version: change.version,
    cause: change.cause ?? cause,
    holder_count: change.holderCount,
    joined: named(change.joined),
    left: named(change.left),
  };
}

/**
 * An account's current state, as a sweep or a rebuild republishes it: every
 * holder holds `share`, no one named as joining or leaving.
 */
export function sharesRefreshOf(
  state: AccountShareCount,
  cause: BudgetChangeCause,
): BudgetSharesChanged {
  const unchanged = { role: null, before: state.share, after: state.share, joined: [], left: [] };
  return sharesChangedOf({ ...state, ...unchanged }, cause);
}

/** What an account's holders hold together before and after a change (share x holders). */
function allotted(change: AccountChange): { before: number; after: number } {
  const holdersBefore = change.holderCount - change.joined.length + change.left.length;
  return { before: change.before * holdersBefore, after: change.after * change.holderCount };
}

/**
 * The messages of one change, in three groups: accounts whose holders hold
 * less together (share x holders falls), then accounts whose share shrinks,
 * then the rest (shares that grow). Each message is one account's whole
 * division (one share for every holder), so no order is needed for any
 * account's limit; but a venue's per-IP limit spans its accounts, and a
 * listener that sums them must never see one account's new allotment before
 * another's old one is given back (a joiner's account holds more together
 * even as its share shrinks; a leaver's holds less as its share grows).
 * Within one operation every shrinking share still goes out before any
 * growing one (only a release, which shrinks no share but the leaver's, puts
 * growing shares in the first group), so a listener that adds up a trade's
 * shares across its accounts never sees them grow before they shrink.
 */
export function sharesChangedMessages(
  changes: AccountChange[],
  cause: BudgetChangeCause,
): BudgetSharesChanged[] {
  const givingBack: BudgetSharesChanged[] = [];
  const shrinking: BudgetSharesChanged[] = [];
  const rest: BudgetSharesChanged[] = [];
  for (const change of changes) {
    const { before, after } = allotted(change);
    const group = after < before ? givingBack : change.after < change.before ? shrinking : rest;
    group.push(sharesChangedOf(change, cause));
  }
  return [...givingBack, ...shrinking, ...rest];
}

/**
 * The changes of several reserves (one batch) as one change per account:
 * from the share before the first to the share after the last, with every
 * trade that joined it in the batch, in the order they joined. An account
 * only ever re-divided for its venue keeps that cause; one a trade joined
 * takes the batch's.
 */
export function mergedChanges(changes: AccountChange[]): AccountChange[] {
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
  return [...byAccount.values()].map((list) => {
    list.sort((a, b) => a.version - b.version);
    const first = list[0]!;
    const last = list[list.length - 1]!;
    const { cause, ...merged } = last;
    const ownCause = list.every((change) => change.cause !== undefined) ? { cause } : {};
    return {
      ...merged,
      ...ownCause,
      before: first.before,
      joined: list.flatMap((change) => change.joined),
      left: list.flatMap((change) => change.left),
    };
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
