import { MessageValidationError } from '../envelope';
import { booleanField, objectOf, oneOf, stringField } from '../guards';
import { parseBudgetFailure, tradeIdField, type BudgetFailure } from './budget-common';

/**
 * Request/reply (core NATS, queue group `budget`): a trade gives its shares
 * back. Sent by the gateway when a create fails after its reserve, and by the
 * worker when a trade reaches a terminal status. Idempotent: releasing a trade
 * that holds nothing answers `released: false`.
 */
export const BUDGET_RELEASE = 'budget.release';
export const BUDGET_RELEASE_RESULT = 'budget.release.result';

export const budgetReleaseSubject = (prefix: string): string => `${prefix}.budget.release`;

/** Why the shares are given back; logged and carried as the cause of the changes. */
export const BUDGET_RELEASE_REASONS = [
  'create_failed',
  'completed',
  'canceled',
  'rejected',
  'failed',
  'read_done',
] as const;
export type BudgetReleaseReason = (typeof BUDGET_RELEASE_REASONS)[number];

export interface BudgetReleaseRequest {
  trade_id: string;
  reason: BudgetReleaseReason;
}

export interface BudgetReleased {
  outcome: 'released';
  trade_id: string;
  /** False when the trade held no budget (already released, swept, or never reserved). */
  released: boolean;
}

export type BudgetReleaseResult = BudgetReleased | BudgetFailure;

export function parseBudgetReleaseRequest(value: unknown): BudgetReleaseRequest {
  const record = objectOf(BUDGET_RELEASE, value);
  return {
    trade_id: tradeIdField(BUDGET_RELEASE, record),
    reason: oneOf(BUDGET_RELEASE, record, 'reason', BUDGET_RELEASE_REASONS),
  };
}

export function parseBudgetReleaseResult(value: unknown): BudgetReleaseResult {
  const type = BUDGET_RELEASE_RESULT;
  const record = objectOf(type, value);
  const outcome = stringField(type, record, 'outcome');
  if (outcome === 'released') {
    return {
      outcome,
      trade_id: tradeIdField(type, record),
      released: booleanField(type, record, 'released'),
    };
  }
  if (outcome === 'failed') {
    return parseBudgetFailure(type, record);
  }
  throw new MessageValidationError(type, `unexpected outcome ${outcome}`);
}
