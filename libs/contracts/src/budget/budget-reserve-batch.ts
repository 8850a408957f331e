import { MessageValidationError } from '../envelope';
import { objectOf, oneOf } from '../guards';
import { parseBudgetFailure, type BudgetFailure } from './budget-common';
import {
  parseBudgetReserveRequest,
  parseBudgetReserveResult,
  type BudgetReserveRequest,
  type BudgetReserveResult,
} from './budget-reserve';

/**
 * Request/reply (core NATS, queue group `budget`): the reservations of a
 * group of creates (the gateway's CreateTradeGroups) in one message. Each is
 * answered as `budget.reserve` would answer it alone, in the request's order;
 * the service runs them in one Redis round trip and announces each account
 * once. A failure of the whole batch (the store unreachable) is one
 * `failed`; a reservation the batch answers failed (a trade id held on other
 * accounts) fails alone.
 */
export const BUDGET_RESERVE_BATCH = 'budget.reserve_batch';
export const BUDGET_RESERVE_BATCH_RESULT = 'budget.reserve_batch.result';
export const MAX_RESERVE_BATCH = 200;

export const budgetReserveBatchSubject = (prefix: string): string =>
  `${prefix}.budget.reserve_batch`;

export interface BudgetReserveBatchRequest {
  /** 1 to MAX_RESERVE_BATCH reservations, each of its own trade. */
  reservations: BudgetReserveRequest[];
}

export type BudgetReserveBatchResult =
  { outcome: 'answered'; results: BudgetReserveResult[] } | BudgetFailure;

export function parseBudgetReserveBatchRequest(value: unknown): BudgetReserveBatchRequest {
  const type = BUDGET_RESERVE_BATCH;
  const list = objectOf(type, value)['reservations'];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_RESERVE_BATCH) {
    throw new MessageValidationError(
      type,
      `reservations must be an array of 1 to ${MAX_RESERVE_BATCH}`,
    );
  }
  const reservations = list.map((entry) => parseBudgetReserveRequest(entry));
  if (new Set(reservations.map((r) => r.trade_id)).size !== reservations.length) {
    throw new MessageValidationError(type, 'each reservation must be of a different trade');
  }
  return { reservations };
}

export function parseBudgetReserveBatchResult(value: unknown): BudgetReserveBatchResult {
  const type = BUDGET_RESERVE_BATCH_RESULT;
  const record = objectOf(type, value);
  if (oneOf(type, record, 'outcome', ['answered', 'failed'] as const) === 'failed') {
    return parseBudgetFailure(type, record);
  }
  const results = record['results'];
  if (!Array.isArray(results)) {
    throw new MessageValidationError(type, 'results must be an array');
  }
  return { outcome: 'answered', results: results.map((entry) => parseBudgetReserveResult(entry)) };
}
