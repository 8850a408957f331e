import { objectOf, oneOf } from '../guards';
import {
  BUDGET_ROLES,
  nonNegativeIntegerField,
  parseBudgetAccount,
  tradeIdField,
  type BudgetAccount,
  type BudgetRole,
} from './budget-common';

/**
 * Published on core NATS whenever a holder's share changes, one message per
 * (trade, role), on a subject per trade so a worker listens to its own trades
 * only. Within one change the shares that shrink are published before the ones
 * that grow, so a listener never sees the account over its limit.
 *
 * Core NATS, not JetStream: a share is current state, not history. A worker
 * that missed a message converges by asking `budget.get` (on start, after a
 * reconnect, periodically) and the service republishes every share on each
 * sweep; `version` lets a listener drop a message older than what it applied.
 */
export const BUDGET_CHANGED = 'budget.changed';

export const budgetChangedSubject = (prefix: string, tradeId: string): string =>
  `${prefix}.budget.changed.${tradeId}`;

/** Every trade's changes, for tests and operators. */
export const budgetChangedWildcard = (prefix: string): string => `${prefix}.budget.changed.*`;

export const BUDGET_CHANGE_CAUSES = [
  /** A trade joined the account (its own grant, or the others shrinking). */
  'reserved',
  /** A trade left the account (its share drops to 0; the others grow). */
  'released',
  /** The sweeper removed a holder whose trade is terminal or never appeared. */
  'swept',
  /** A live trade found without a holder was added back (after a rebuild race). */
  'adopted',
  /** The account limit changed in the venue registry. */
  'resized',
  /** State rebuilt from the live trades in Postgres (empty or flushed Redis). */
  'rebuilt',
  /** Periodic republish of an unchanged share. */
  'refresh',
] as const;
export type BudgetChangeCause = (typeof BUDGET_CHANGE_CAUSES)[number];

export interface BudgetChanged extends BudgetAccount {
  trade_id: string;
  role: BudgetRole;
  /** Requests per second; 0 once the trade no longer holds budget on this account. */
  share: number;
  version: number;
  cause: BudgetChangeCause;
}

export function parseBudgetChanged(value: unknown): BudgetChanged {
  const record = objectOf(BUDGET_CHANGED, value);
  return {
    trade_id: tradeIdField(BUDGET_CHANGED, record),
    role: oneOf(BUDGET_CHANGED, record, 'role', BUDGET_ROLES),
    ...parseBudgetAccount(BUDGET_CHANGED, record, 'account'),
    share: nonNegativeIntegerField(BUDGET_CHANGED, record, 'share'),
    version: nonNegativeIntegerField(BUDGET_CHANGED, record, 'version'),
    cause: oneOf(BUDGET_CHANGED, record, 'cause', BUDGET_CHANGE_CAUSES),
  };
}
