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
  type BudgetChanged,
  type BudgetRole,
} from '@sts/contracts';

/**
 * Published on core NATS whenever an account is re-divided: one message per
 * account and change, whatever its number of holders (a message per holder
 * made every reserve cost the budget service O(holders) publishes). Every
 * holder listed holds `share`; a trade listed in `left` holds 0 on this
 * account from `version` on (it was released or swept). On a subject per
 * account, so a worker listens to the accounts its trades hold shares of.
 *
 * Within one change, accounts whose share shrinks are published before the
 * ones that grow, so a listener never sees an account over its limit.
 * Convergence without every message is as for `budget.changed`: budget.get on
 * start, after a reconnect and periodically, the sweep republishes every
 * account, and `version` drops what is stale.
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
  /** Requests per second, of every holder in `holders`. */
  share: number;
  version: number;
  cause: BudgetChangeCause;
  /** The trade whose reserve caused the change, if it holds here, comes last. */
  holders: ShareHolder[];
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

export function parseBudgetSharesChanged(value: unknown): BudgetSharesChanged {
  const record = objectOf(BUDGET_SHARES_CHANGED, value);
  return {
    ...parseBudgetAccount(BUDGET_SHARES_CHANGED, record, 'account'),
    share: nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'share'),
    version: nonNegativeIntegerField(BUDGET_SHARES_CHANGED, record, 'version'),
    cause: oneOf(BUDGET_SHARES_CHANGED, record, 'cause', BUDGET_CHANGE_CAUSES),
    holders: holdersField(record, 'holders'),
    left: holdersField(record, 'left'),
  };
}

/**
 * The same change as one `budget.changed` per (trade, role), in an order that
 * never sums over the limit: those leaving first at 0, the joining one last.
 */
export function perHolder(change: BudgetSharesChanged): BudgetChanged[] {
  const base = {
    venue: change.venue,
    wallet: change.wallet,
    version: change.version,
    cause: change.cause,
  };
  return [
    ...change.left.map((holder) => ({ ...base, ...holder, share: 0 })),
    ...change.holders.map((holder) => ({ ...base, ...holder, share: change.share })),
  ];
}
