import type { BudgetAccount, BudgetRole, HolderShare } from '@sts/contracts';
import { isVenueId } from '@sts/domain';
import { AppError } from '@sts/platform';
import {
  NOT_READY,
  type AccountChange,
  type AccountTerms,
  type HeldTrade,
  type HolderRef,
  type ReserveOutcome,
  type TradeShares,
} from './budget-types';
import { egressOfPool } from './venue-pools';

/** What the scripts and transactions answer, read into the service's types. */
export type ExecResults = Array<[Error | null, unknown]> | null;

export function execResult<T>(results: ExecResults, index: number): T {
  const entry = results?.[index];
  if (!entry) {
    throw new AppError('budget_unavailable', 'Redis transaction was discarded');
  }
  if (entry[0]) {
    throw new AppError('budget_unavailable', 'Redis command failed', { cause: entry[0] });
  }
  return entry[1] as T;
}

export function parseHolder(member: string): HolderRef {
  const [tradeId, role] = member.split('|');
  return { tradeId: tradeId!, role: role === 'hedge' ? 'hedge' : 'maker' };
}

/** The trade an operation moved: it joined (a reserve) or left (a release) the accounts it names. */
export interface Movement {
  tradeId: string;
  direction: 'joined' | 'left';
}

/** A pace as the scripts (-1 for none) or an account's hash (absent for none) hold it. */
export const paceFrom = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') {
    return null;
  }
  const pace = Number(value);
  return Number.isFinite(pace) && pace >= 0 ? pace : null;
};

/**
 * Script replies list one {role, venue, wallet, before, after, holders, pace}
 * entry per account, `holders` being how many hold it after the change. `moved` is
 * the trade the operation added or removed (none for a re-division); an entry
 * without a role in its operation is another account of the trade's venue,
 * re-divided because the venue's per-IP share moved (`venue_shared`).
 */
export function parseChanges(
  version: number,
  entries: unknown[],
  moved: Movement | null,
): AccountChange[] {
  return entries.map((entry) => {
    const [role, venue, wallet, before, after, holderCount, pace] = entry as [
      string,
      string,
      string,
      number,
      number,
      number,
      number,
    ];
    if (!isVenueId(venue)) {
      throw unexpected('change', venue);
    }
    const ownRole = role === '' ? null : (role as BudgetRole);
    const named = moved && ownRole ? [{ tradeId: moved.tradeId, role: ownRole }] : [];
    return {
      role: ownRole,
      ...(moved && !ownRole ? { cause: 'venue_shared' as const } : {}),
      venue,
      wallet,
      before,
      after,
      pace: paceFrom(pace),
      holderCount: Number(holderCount),
      joined: moved?.direction === 'joined' ? named : [],
      left: moved?.direction === 'left' ? named : [],
      version,
    };
  });
}

export function toHeldTrade(tradeId: string, hash: Record<string, string>): HeldTrade {
  const account = (venue: string | undefined, wallet: string | undefined): BudgetAccount | null =>
    venue && wallet && isVenueId(venue) ? { venue, wallet } : null;
  return {
    tradeId,
    reservedAtMs: Number(hash['reserved_at']),
    maker: account(hash['maker_venue'], hash['maker_wallet'])!,
    hedge: account(hash['hedge_venue'], hash['hedge_wallet']),
  };
}

export const unexpected = (operation: string, reply: unknown): AppError =>
  new AppError(
    'internal_error',
    `unexpected ${operation} reply from Redis: ${JSON.stringify(reply)}`,
  );

/** The reserve script's reply: refused, conflict, the trade's existing shares, or granted with the changes. */
export function reserveOutcomeOf(
  reply: unknown[],
  tradeId: string,
  maker: AccountTerms,
  hedge: AccountTerms | null,
): ReserveOutcome {
  const [status, ...rest] = reply;
  switch (status) {
    case 'not_ready':
      return NOT_READY;
    case 'conflict':
      return { kind: 'conflict' };
    case 'refused':
      return {
        kind: 'refused',
        role: rest[0] as BudgetRole,
        holders: Number(rest[1]),
        scope: rest[2] === 'venue' ? 'venue' : 'account',
        egress: rest[2] === 'venue' ? egressOfPool(String(rest[3])) : null,
      };
    case 'existing':
      return { kind: 'existing', shares: existingShares(rest, maker, hedge) };
    case 'granted': {
      const changes = parseChanges(Number(rest[0]), rest.slice(1), {
        tradeId,
        direction: 'joined',
      });
      const shareOf = (role: BudgetRole): HolderShare => {
        const change = changes.find((entry) => entry.role === role)!;
        return holderShareOf(change, change.after, change.version, change.pace);
      };
      return {
        kind: 'granted',
        shares: { maker: shareOf('maker'), hedge: hedge ? shareOf('hedge') : null },
        changes,
      };
    }
    default:
      throw unexpected('reserve', status);
  }
}

/** A holder's share as callers read it: the pace only where the venue has a per-IP term. */
export function holderShareOf(
  account: BudgetAccount,
  share: number,
  version: number,
  pace: number | null,
): HolderShare {
  const shared = { venue: account.venue, wallet: account.wallet, share, version };
  return pace === null ? shared : { ...shared, pace_per_min: pace };
}

/** A retried reserve's reply: the shares the trade already holds, {role, share, version, pace} each. */
function existingShares(
  entries: unknown[],
  maker: AccountTerms,
  hedge: AccountTerms | null,
): TradeShares {
  const shares = (entries as Array<[BudgetRole, number, number, number]>).map(
    ([role, share, version, pace]) => ({ role, share, version, pace: paceFrom(pace) }),
  );
  const shareOf = (role: BudgetRole, account: AccountTerms): HolderShare => {
    const found = shares.find((entry) => entry.role === role)!;
    return holderShareOf(account, found.share, found.version, found.pace);
  };
  return { maker: shareOf('maker', maker), hedge: hedge ? shareOf('hedge', hedge) : null };
}
