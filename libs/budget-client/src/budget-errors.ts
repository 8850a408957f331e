import type { BudgetFailure, BudgetRefused } from '@sts/contracts';
import { AppError } from '@sts/platform';

/**
 * The account cannot give a new trade its minimum share: the create answers
 * 429 `rate_budget_exhausted`. Nothing was reserved.
 */
export class BudgetRefusedError extends AppError {
  constructor(readonly refusal: BudgetRefused) {
    super(
      'rate_budget_exhausted',
      `insufficient ${refusal.limit_scope === 'venue' ? 'venue-wide (per-IP)' : 'account-level'} ` +
        `rate budget on ${refusal.venue}${refusal.egress ? ` via egress ${refusal.egress}` : ''}: ` +
        `${refusal.holders} trade(s) share ${divisionText(refusal)}`,
      {
        details: {
          exchange: refusal.venue,
          leg: refusal.role,
          limit_per_s: refusal.limit,
          holders: refusal.holders,
          min_trade_budget: refusal.min_trade_budget,
          ...(refusal.min_pace_per_min === undefined
            ? {}
            : { min_pace_per_min: refusal.min_pace_per_min }),
        },
      },
    );
    this.name = 'BudgetRefusedError';
  }
}

/**
 * What the newcomer would get and the minimum it falls under: a second for
 * an account's limit, a minute for a per-IP limit (the venues count it a
 * minute at a time, and it is divided so).
 */
function divisionText(refusal: BudgetRefused): string {
  const { limit, holders } = refusal;
  if (refusal.min_pace_per_min !== undefined) {
    return (
      `its ${limit * 60} requests a minute and another would get ` +
      `${Math.floor((limit * 60) / (holders + 1))} a minute, under the minimum of ` +
      `${refusal.min_pace_per_min}`
    );
  }
  return (
    `its ${limit} requests/s and another would get ` +
    `${Math.floor(limit / (holders + 1))}, under the minimum of ${refusal.min_trade_budget}`
  );
}

/**
 * The budget service or its Redis did not answer in time: the create answers
 * 503 `budget_unavailable`; a running trade keeps its last budget.
 */
export class BudgetUnavailableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('budget_unavailable', message, { cause });
    this.name = 'BudgetUnavailableError';
  }
}

/** A failure the budget service answered, as the error its caller throws. */
export function budgetFailureError(failure: BudgetFailure): AppError {
  switch (failure.code) {
    case 'budget_unavailable':
    case 'internal_error':
      return new BudgetUnavailableError(failure.message);
    case 'invalid_request':
    case 'conflict':
      return new AppError(failure.code, failure.message);
  }
}
