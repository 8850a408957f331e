import { MessageValidationError } from '../envelope';
import { integerField, objectOf, oneOf } from '../guards';
import {
  BUDGET_ROLES,
  egressField,
  nonNegativeIntegerField,
  parseBudgetAccount,
  parseBudgetFailure,
  tradeIdField,
  type BudgetAccount,
  type BudgetFailure,
  type BudgetRole,
} from './budget-common';

/**
 * Request/reply (core NATS, queue group `budget`): how one venue account's
 * limit is divided right now. For operators and tests; trading never needs it.
 */
export const BUDGET_ACCOUNT = 'budget.account';
export const BUDGET_ACCOUNT_RESULT = 'budget.account.result';

export const budgetAccountSubject = (prefix: string): string => `${prefix}.budget.account`;

export type BudgetAccountRequest = BudgetAccount;

export interface BudgetHolder {
  trade_id: string;
  role: BudgetRole;
}

export interface BudgetAccountState extends BudgetAccount {
  outcome: 'found';
  /** The venue registry's rate_limit_per_s the shares were divided from. */
  limit: number;
  min_trade_budget: number;
  /**
   * Every holder's share: min(floor(limit / holders), max(1, floor(pace /
   * 60))), where pace = floor(venue_limit * 60 / venue_holders) is each
   * holder's share of the per-IP limit a minute; 0 when there are none.
   */
  share: number;
  holders: BudgetHolder[];
  version: number;
  /**
   * The venue's per-IP limit every account of the venue on the account's
   * egress address shares (null: none). Absent from a budget service that
   * knows no venue limit.
   */
  venue_limit?: number | null;
  /** How many hold any account of the venue on that egress (absent as `venue_limit`). */
  venue_holders?: number;
  /** The egress address the account's requests leave from (absent from a service that knows none). */
  egress?: string;
}

export type BudgetAccountResult = BudgetAccountState | BudgetFailure;

export function parseBudgetAccountRequest(value: unknown): BudgetAccountRequest {
  return parseBudgetAccount(BUDGET_ACCOUNT, value, 'account');
}

export function parseBudgetAccountResult(value: unknown): BudgetAccountResult {
  const type = BUDGET_ACCOUNT_RESULT;
  const record = objectOf(type, value);
  const outcome = oneOf(type, record, 'outcome', ['found', 'failed'] as const);
  if (outcome === 'failed') {
    return parseBudgetFailure(type, record);
  }
  const holders = record['holders'];
  if (!Array.isArray(holders)) {
    throw new MessageValidationError(type, 'holders must be an array');
  }
  return {
    outcome,
    ...parseBudgetAccount(type, record, 'account'),
    limit: integerField(type, record, 'limit'),
    min_trade_budget: integerField(type, record, 'min_trade_budget'),
    share: nonNegativeIntegerField(type, record, 'share'),
    holders: holders.map((holder: unknown) => {
      const entry = objectOf(type, holder);
      return {
        trade_id: tradeIdField(type, entry),
        role: oneOf(type, entry, 'role', BUDGET_ROLES),
      };
    }),
    version: nonNegativeIntegerField(type, record, 'version'),
    ...venueTermOf(type, record),
    ...egressField(type, record),
  };
}

/** The venue fields of an account state, when the service sent them. */
function venueTermOf(
  type: string,
  record: Record<string, unknown>,
): Pick<BudgetAccountState, 'venue_limit' | 'venue_holders'> {
  if (record['venue_holders'] === undefined) {
    return {};
  }
  return {
    venue_limit:
      record['venue_limit'] === null ? null : nonNegativeIntegerField(type, record, 'venue_limit'),
    venue_holders: nonNegativeIntegerField(type, record, 'venue_holders'),
  };
}
