import { objectOf, oneOf } from '../guards';
import {
  parseBudgetFailure,
  parseHolderShare,
  parseOptionalHolderShare,
  tradeIdField,
  type BudgetFailure,
  type HolderShare,
} from './budget-common';

/**
 * Request/reply (core NATS, queue group `budget`): a trade's current shares.
 * Workers ask on start, after a NATS reconnect and periodically, so a missed
 * `budget.shares_changed` message never leaves a bucket on a stale rate for long.
 */
export const BUDGET_GET = 'budget.get';
export const BUDGET_GET_RESULT = 'budget.get.result';

export const budgetGetSubject = (prefix: string): string => `${prefix}.budget.get`;

export interface BudgetGetRequest {
  trade_id: string;
}

export interface BudgetFound {
  outcome: 'found';
  trade_id: string;
  maker: HolderShare;
  hedge: HolderShare | null;
}

export interface BudgetNotFound {
  outcome: 'not_found';
  trade_id: string;
}

export type BudgetGetResult = BudgetFound | BudgetNotFound | BudgetFailure;

export function parseBudgetGetRequest(value: unknown): BudgetGetRequest {
  return { trade_id: tradeIdField(BUDGET_GET, objectOf(BUDGET_GET, value)) };
}

export function parseBudgetGetResult(value: unknown): BudgetGetResult {
  const type = BUDGET_GET_RESULT;
  const record = objectOf(type, value);
  const outcome = oneOf(type, record, 'outcome', ['found', 'not_found', 'failed'] as const);
  switch (outcome) {
    case 'found':
      return {
        outcome,
        trade_id: tradeIdField(type, record),
        maker: parseHolderShare(type, record['maker'], 'maker'),
        hedge: parseOptionalHolderShare(type, record, 'hedge'),
      };
    case 'not_found':
      return { outcome, trade_id: tradeIdField(type, record) };
    case 'failed':
      return parseBudgetFailure(type, record);
  }
}
