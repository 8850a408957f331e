import { MessageValidationError } from '../envelope';
import { integerField, objectOf, oneOf } from '../guards';
import {
  nonNegativeIntegerField,
  parseBudgetAccount,
  parseBudgetFailure,
  type BudgetAccount,
  type BudgetFailure,
} from './budget-common';

/**
 * Request/reply (core NATS, queue group `budget`): a worker's word on one
 * venue account's cumulative request budget (Hyperliquid's address budget,
 * Lighter's volume quota), answered with the account's budget as the
 * service keeps it. Every worker holding trades on the account sends one
 * every poll: what the venue last told it (`reading`, when newer than the
 * one it sent before) and the requests it sent on the account since its
 * last report (`spent`). The service keeps the newest reading of all
 * workers and the spends reported after it.
 */
export const BUDGET_CUMULATIVE = 'budget.cumulative';
export const BUDGET_CUMULATIVE_RESULT = 'budget.cumulative.result';

export const budgetCumulativeSubject = (prefix: string): string => `${prefix}.budget.cumulative`;

/** What a venue said is left of the account's budget, and when. */
export interface CumulativeReading {
  /** Requests left; negative once over (Hyperliquid counts past its cap). */
  left: number;
  read_at_ms: number;
}

export interface BudgetCumulativeRequest extends BudgetAccount {
  reading: CumulativeReading | null;
  /** Requests the worker sent on the account since its last report. */
  spent: number;
}

/** The account's budget as the service keeps it. */
export interface CumulativeAccountQuota {
  /** The newest reading any worker reported. */
  left: number;
  read_at_ms: number;
  /** Requests reported spent since that reading (some may predate it: counted twice, never missed). */
  spent: number;
  /** The account's request limit a second (the registry's): how fast it can spend unreported. */
  spend_per_s: number;
  /** Trades holding the account to hedge there. */
  hedge_holders: number;
}

export type BudgetCumulativeResult =
  (BudgetAccount & { outcome: 'ok'; quota: CumulativeAccountQuota | null }) | BudgetFailure;

export function parseBudgetCumulativeRequest(value: unknown): BudgetCumulativeRequest {
  const type = BUDGET_CUMULATIVE;
  const record = objectOf(type, value);
  const { venue, wallet } = parseBudgetAccount(type, record, 'account');
  const reading = record['reading'];
  return {
    venue,
    wallet,
    reading: reading === null || reading === undefined ? null : parseReading(type, reading),
    spent: nonNegativeIntegerField(type, record, 'spent'),
  };
}

export function parseBudgetCumulativeResult(value: unknown): BudgetCumulativeResult {
  const type = BUDGET_CUMULATIVE_RESULT;
  const record = objectOf(type, value);
  const outcome = oneOf(type, record, 'outcome', ['ok', 'failed'] as const);
  if (outcome === 'failed') {
    return parseBudgetFailure(type, record);
  }
  const { venue, wallet } = parseBudgetAccount(type, record, 'account');
  const quota = record['quota'];
  if (quota === null || quota === undefined) {
    return { outcome, venue, wallet, quota: null };
  }
  const fields = objectOf(type, quota);
  return {
    outcome,
    venue,
    wallet,
    quota: {
      ...parseReading(type, fields),
      spent: nonNegativeIntegerField(type, fields, 'spent'),
      spend_per_s: nonNegativeIntegerField(type, fields, 'spend_per_s'),
      hedge_holders: nonNegativeIntegerField(type, fields, 'hedge_holders'),
    },
  };
}

function parseReading(type: string, value: unknown): CumulativeReading {
  const record = objectOf(type, value);
  const readAt = nonNegativeIntegerField(type, record, 'read_at_ms');
  if (!Number.isSafeInteger(readAt)) {
    throw new MessageValidationError(type, 'read_at_ms must be a safe integer');
  }
  return { left: integerField(type, record, 'left'), read_at_ms: readAt };
}
