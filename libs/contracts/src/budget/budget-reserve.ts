import { type VenueId } from '@sts/domain';
import { MessageValidationError } from '../envelope';
import { integerField, objectOf, oneOf } from '../guards';
import {
  BUDGET_ROLES,
  egressField,
  parseBudgetAccount,
  parseBudgetFailure,
  parseHolderShare,
  parseOptionalHolderShare,
  tradeIdField,
  type BudgetAccount,
  type BudgetFailure,
  type BudgetRole,
  type HolderShare,
} from './budget-common';

/**
 * Request/reply (core NATS, queue group `budget`): the gateway asks for a new
 * trade's budget before it inserts the trade row. Idempotent by trade_id: a
 * retry answers the grant already held, never a second holder. The service
 * decides from its venue registry whether the hedge account is a holder too.
 */
export const BUDGET_RESERVE = 'budget.reserve';
export const BUDGET_RESERVE_RESULT = 'budget.reserve.result';

export const budgetReserveSubject = (prefix: string): string => `${prefix}.budget.reserve`;

export interface BudgetReserveRequest {
  /** The trade's id; for a read that spends the account's limit outside a trade, the read's own id. */
  trade_id: string;
  maker: BudgetAccount;
  /**
   * Sent for every trade; it becomes a holder only where the hedge venue
   * shares its account limit. Absent: the maker account alone holds (a read
   * such as the gateway's positions read, for its duration).
   */
  hedge?: BudgetAccount;
}

export interface BudgetGranted {
  outcome: 'granted';
  trade_id: string;
  maker: HolderShare;
  /** Null when the hedge venue does not share its account limit (no hedge_rate_budget). */
  hedge: HolderShare | null;
}

/**
 * Which limit refused a newcomer: its account's (`rate_limit_per_s`, divided
 * among the account's holders) or its venue's per-IP limit (divided among
 * every holder of every account of the venue on the same egress address).
 */
export const BUDGET_LIMIT_SCOPES = ['account', 'venue'] as const;
export type BudgetLimitScope = (typeof BUDGET_LIMIT_SCOPES)[number];

/** The share a newcomer would get falls under the venue's min_trade_budget: nothing changed. */
export interface BudgetRefused {
  outcome: 'refused';
  trade_id: string;
  role: BudgetRole;
  venue: VenueId;
  wallet: string;
  /** The limit that refused (the account's, or the venue's per-IP limit: `limit_scope`). */
  limit: number;
  /** How many hold what `limit` is divided among, before the newcomer. */
  holders: number;
  min_trade_budget: number;
  /** Absent from a budget service that knows no venue limit: `account`. */
  limit_scope?: BudgetLimitScope;
  /**
   * A `venue` refusal: the smallest pace a trade runs on, tokens a minute of
   * the per-IP `limit` (a second) x 60, which the newcomer's would fall under.
   * Absent from a budget service that divided the per-IP limit a second.
   */
  min_pace_per_min?: number;
  /**
   * A `venue` refusal in a deployment of several egress addresses: the egress
   * whose per-IP limit refused (the venue's accounts on another egress have
   * their own). Absent with one egress.
   */
  egress?: string;
}

export type BudgetReserveResult = BudgetGranted | BudgetRefused | BudgetFailure;

export function parseBudgetReserveRequest(value: unknown): BudgetReserveRequest {
  const record = objectOf(BUDGET_RESERVE, value);
  const request = {
    trade_id: tradeIdField(BUDGET_RESERVE, record),
    maker: parseBudgetAccount(BUDGET_RESERVE, record['maker'], 'maker'),
    hedge:
      record['hedge'] === undefined
        ? undefined
        : parseBudgetAccount(BUDGET_RESERVE, record['hedge'], 'hedge'),
  };
  if (request.maker.venue === request.hedge?.venue) {
    throw new MessageValidationError(BUDGET_RESERVE, 'maker and hedge venues must differ');
  }
  return request;
}

export function parseBudgetReserveResult(value: unknown): BudgetReserveResult {
  const type = BUDGET_RESERVE_RESULT;
  const record = objectOf(type, value);
  const outcome = oneOf(type, record, 'outcome', ['granted', 'refused', 'failed'] as const);
  switch (outcome) {
    case 'granted':
      return {
        outcome,
        trade_id: tradeIdField(type, record),
        maker: parseHolderShare(type, record['maker'], 'maker'),
        hedge: parseOptionalHolderShare(type, record, 'hedge'),
      };
    case 'refused':
      return {
        outcome,
        trade_id: tradeIdField(type, record),
        role: oneOf(type, record, 'role', BUDGET_ROLES),
        ...parseBudgetAccount(type, record, 'account'),
        limit: integerField(type, record, 'limit'),
        holders: integerField(type, record, 'holders'),
        min_trade_budget: integerField(type, record, 'min_trade_budget'),
        ...(record['limit_scope'] === undefined
          ? {}
          : { limit_scope: oneOf(type, record, 'limit_scope', BUDGET_LIMIT_SCOPES) }),
        ...egressField(type, record),
        ...(record['min_pace_per_min'] === undefined
          ? {}
          : { min_pace_per_min: integerField(type, record, 'min_pace_per_min') }),
      };
    case 'failed':
      return parseBudgetFailure(type, record);
  }
}
