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
        `rate budget on ${refusal.venue}: ${refusal.holders} ` +
        `trade(s) share its ${refusal.limit} requests/s and another would get ` +
        `${Math.floor(refusal.limit / (refusal.holders + 1))}, under the minimum of ` +
        `${refusal.min_trade_budget}`,
      {
        details: {
          exchange: refusal.venue,
          leg: refusal.role,
          limit_per_s: refusal.limit,
          holders: refusal.holders,
          min_trade_budget: refusal.min_trade_budget,
        },
      },
    );
    this.name = 'BudgetRefusedError';
  }
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
