import {
  BUDGET_CHANGE_CAUSES,
  BUDGET_ROLES,
  MessageValidationError,
  nonNegativeIntegerField,
  objectOf,
  oneOf,
  parseBudgetAccount,
  tradeIdField,
  type BudgetAccount,
  type BudgetChangeCause,
  type BudgetRole,
} from '@sts/contracts';

/**
 * Published on core NATS whenever an account is re-divided: one message per
 * account and change. Every trade holding the account holds `share` from
 * `version` on; the message names only the trades that `joined` and `left`
 * with this change, never every holder, so it costs the budget service and
 * its listeners the same whatever the number of holders (a message naming
 * every holder made each reserve cost O(holders) in encoding, Redis replies
 * and bytes). A listener knows which accounts its trades hold from
 * `budget.get` and from `joined`; a trade listed in `left` holds 0 on this
 * account from `version` on (it was released or swept). On a subject per
 * account, so a worker listens to the accounts its trades hold shares of.
 *
 * Within one change, accounts whose share shrinks are published before the
 * ones that grow. Convergence without every message (core NATS): budget.get
 * on start, after a reconnect and periodically, the sweep republishes every
 * account (`refresh`, nobody named), and `version` drops what is stale.
 */
export const BUDGET_SHARES_CHANGED = 'budget.shares_changed';

export const budgetSharesSubject = (prefix: string, account: BudgetAccount): string =>
  `${prefix}.budget.shares.${account.venue}.${account.wallet}`;

/** Every account's changes, for tests and operators. */
export const budgetSharesWildcard = (prefix: string): string => `${prefix}.budget.shares.>`;

export interface ShareHolder {
  trade_id: string;
  role: BudgetRole;
}

export interface BudgetSharesChanged extends BudgetAccount {
  /** Requests per second, of every trade holding the account. */
  share: number;
  /**
   * Where the venue has a per-IP limit: every holder's share of it, tokens a
   * minute (a holder averages at most min(share, pace_per_min / 60) a second).
   */
  pace_per_min?: number;
  version: number;
  cause: BudgetChangeCause;
  /** How many trades hold the account from `version` on (`share` is limit / holder_count). */
  holder_count: number;
  /** Trades that hold the account from this change on. */
  joined: ShareHolder[];
  /** Trades that hold nothing on this account any more. */
  left: ShareHolder[];
}

function holdersField(record: Record<string, unknown>, field: string): ShareHolder[] {
  const value = record[field];
  if (!Array.isArray(value)) {
    throw new MessageValidationError(BUDGET_SHARES_CHANGED, `${field} must be an array`);
  }
  return value.map((entry) => {
    const holder = objectOf(BUDGET_SHARES_CHANGED, entry);
    return {
      trade_id: tradeIdField(BUDGET_SHARES_CHANGED, holder),
      role: oneOf(BUDGET_SHARES_CHANGED, holder, 'role', BUDGET_ROLES),
    };
  });
}

/**
 * Also reads the earlier form, which listed every holder in `holders` (a
 * budget service not yet upgraded, during a rolling deploy): every trade it
 * lists holds the account, so it reads as all of them joining.
 */
export function parseBudgetSharesChanged(value: unknown): BudgetSharesChanged {
  const record = objectOf(BUDGET_SHARES_CHANGED, value);
  const listsEveryHolder = record['joined'] === undefined && record['holders'] !== undefined;
  const joined = holdersField(record, listsEveryHolder ? 'holders' : 'joined');
  // Fields named, not a spread followed by more: that object is four times the size
  // (docs/perf/worker.md).
  const { venue, wallet } = parseBudgetAccount(BUDGET_SHARES_CHANGED, record, 'account');
  const parsed: BudgetSharesChanged = {
    venue,
    wallet,
    share: nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'share'),
    version: nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'version'),
    cause: oneOf(BUDGET_SHARES_CHANGED, record, 'cause', BUDGET_CHANGE_CAUSES),
    holder_count: listsEveryHolder
      ? joined.length
      : nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'holder_count'),
    joined,
    left: holdersField(record, 'left'),
  };
  if (record['pace_per_min'] !== undefined) {
    parsed.pace_per_min = nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'pace_per_min');
  }
  return parsed;
}
