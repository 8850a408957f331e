import { isVenueId, type VenueId } from '@sts/domain';
import { MessageValidationError } from '../envelope';
import { integerField, objectOf, oneOf, optionalStringField, stringField } from '../guards';

/**
 * Shared shapes of the budget subjects. A trade holds a maker share of its
 * maker account's request limit and, when the hedge venue's limit is shared
 * per account, a hedge share of its hedge account's limit.
 */
export const BUDGET_ROLES = ['maker', 'hedge'] as const;
export type BudgetRole = (typeof BUDGET_ROLES)[number];

/** Codes a budget request can fail with (besides a refusal, which is its own outcome). */
export const BUDGET_FAILURE_CODES = [
  'budget_unavailable',
  'invalid_request',
  'conflict',
  'internal_error',
] as const;
export type BudgetFailureCode = (typeof BUDGET_FAILURE_CODES)[number];

export interface BudgetFailure {
  outcome: 'failed';
  code: BudgetFailureCode;
  message: string;
}

/** A venue account: the unit an account-level rate limit applies to. */
export interface BudgetAccount {
  venue: VenueId;
  /** Compared exactly as given: the gateway passes the wallet it writes in the trade row. */
  wallet: string;
}

/** One holder's share of one account, with the version of the account state it was read at. */
export interface HolderShare extends BudgetAccount {
  /** Requests per second. */
  share: number;
  /** Increases with every change; a share with a lower version than one already applied is stale. */
  version: number;
  /**
   * Where the venue has a per-IP limit: the holder's share of it, in tokens a
   * minute (the venues count it a minute at a time). The holder averages at
   * most min(share, pace_per_min / 60) requests a second. Absent: `share` alone.
   */
  pace_per_min?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Venue addresses are hex or base58: letters and digits only. Anything else
// (spaces, ':', braces) would corrupt the Redis key the account lives under.
const WALLET = /^[A-Za-z0-9]{1,128}$/;

export function tradeIdField(type: string, record: Record<string, unknown>): string {
  const value = stringField(type, record, 'trade_id');
  if (!UUID.test(value)) {
    throw new MessageValidationError(type, 'trade_id must be a UUID');
  }
  return value;
}

export function parseBudgetAccount(type: string, value: unknown, field: string): BudgetAccount {
  const record = objectOf(type, value);
  const venue = stringField(type, record, 'venue');
  if (!isVenueId(venue)) {
    throw new MessageValidationError(type, `${field}.venue is not a venue id`);
  }
  const wallet = stringField(type, record, 'wallet');
  if (!WALLET.test(wallet)) {
    throw new MessageValidationError(type, `${field}.wallet must be 1-128 letters or digits`);
  }
  return { venue, wallet };
}

export function nonNegativeIntegerField(
  type: string,
  record: Record<string, unknown>,
  field: string,
): number {
  const value = integerField(type, record, field);
  if (value < 0) {
    throw new MessageValidationError(type, `${field} must be >= 0`);
  }
  return value;
}

export function parseHolderShare(type: string, value: unknown, field: string): HolderShare {
  const record = objectOf(type, value);
  // Fields named, not a spread followed by more: that object is four times the size (a trade's
  // watch keeps it; docs/perf/worker.md).
  const { venue, wallet } = parseBudgetAccount(type, record, field);
  const parsed: HolderShare = {
    venue,
    wallet,
    share: nonNegativeIntegerField(type, record, 'share'),
    version: nonNegativeIntegerField(type, record, 'version'),
  };
  if (record['pace_per_min'] !== undefined) {
    parsed.pace_per_min = nonNegativeIntegerField(type, record, 'pace_per_min');
  }
  return parsed;
}

export function parseOptionalHolderShare(
  type: string,
  record: Record<string, unknown>,
  field: string,
): HolderShare | null {
  const value = record[field];
  return value === null || value === undefined ? null : parseHolderShare(type, value, field);
}

export function parseBudgetFailure(type: string, record: Record<string, unknown>): BudgetFailure {
  return {
    outcome: 'failed',
    code: oneOf(type, record, 'code', BUDGET_FAILURE_CODES),
    message: stringField(type, record, 'message'),
  };
}

/** A message's optional `egress`, left out when absent (an earlier budget service's). */
export function egressField(type: string, record: Record<string, unknown>): { egress?: string } {
  const egress = optionalStringField(type, record, 'egress');
  return egress === undefined ? {} : { egress };
}
