import type {
  BudgetAccount,
  BudgetChangeCause,
  BudgetLimitScope,
  BudgetRole,
  HolderShare,
} from '@sts/contracts';
import type { VenueId } from '@sts/domain';

/**
 * A venue's terms, from the venue registry: `limit` tokens a second per
 * account, `venueLimit` a second for every account of the venue together
 * (its per-IP limits; null: none), `min` the smallest share a trade runs on,
 * `venueMin` the smallest pace (share of the per-IP term, tokens a minute).
 */
export interface VenueLimits {
  venue: VenueId;
  limit: number;
  min: number;
  venueLimit: number | null;
  venueMin: number;
}

/**
 * A venue's terms for one account, and the egress address its requests leave
 * from (the plan's `egressOf`): its holders share `venueLimit` with those of
 * the venue's other accounts on that egress alone (its pool, `poolOf`).
 */
export type AccountTerms = BudgetAccount & VenueLimits & { egress: string };

export interface HolderRef {
  tradeId: string;
  role: BudgetRole;
}

/**
 * One account re-divided by one operation (or a batch of reserves). `role` is
 * the part the operation's own trade plays on it (null when the account was
 * re-divided for its limit). Every holder holds `after` from `version` on;
 * the change names only who `joined` and who `left`, never every holder, so
 * it costs the same whatever the number of holders.
 */
export interface AccountChange extends BudgetAccount {
  role: BudgetRole | null;
  /**
   * Set when the account changed for a reason of its own within the
   * operation: another account of its venue gained or lost a holder, and the
   * venue's per-IP share moved (`venue_shared`). Otherwise the operation's cause.
   */
  cause?: BudgetChangeCause;
  before: number;
  after: number;
  /**
   * Every holder's pace after the change: its share of the venue's per-IP
   * term, tokens a minute (null: the venue has none).
   */
  pace: number | null;
  /** How many trades hold the account after the change. */
  holderCount: number;
  joined: HolderRef[];
  left: HolderRef[];
  version: number;
}

/** An account's share, its version and how many hold it (what a refresh publishes). */
export interface AccountShareCount extends BudgetAccount {
  share: number;
  pace: number | null;
  version: number;
  holderCount: number;
}

export interface AccountState extends AccountTerms {
  share: number;
  pace: number | null;
  version: number;
  holders: HolderRef[];
}

/** A pool as the budget store holds it: its per-IP limit and how many hold any of its accounts. */
export interface VenueHolding {
  venueLimit: number | null;
  venueHolders: number;
}

export interface TradeShares {
  maker: HolderShare;
  hedge: HolderShare | null;
}

/** A trade that holds budget, as the budget store knows it. */
export interface HeldTrade {
  tradeId: string;
  reservedAtMs: number;
  maker: BudgetAccount;
  hedge: BudgetAccount | null;
}

export const NOT_READY = { kind: 'not_ready' } as const;
export type NotReady = typeof NOT_READY;

export type ReserveOutcome =
  | NotReady
  | { kind: 'conflict' }
  /**
   * `holders`: the account's, or its pool's when the venue's per-IP term
   * refused (`egress` then names the pool's egress; null: the venue's former pool).
   */
  | {
      kind: 'refused';
      role: BudgetRole;
      holders: number;
      scope: BudgetLimitScope;
      egress: string | null;
    }
  | { kind: 'existing'; shares: TradeShares }
  | { kind: 'granted'; shares: TradeShares; changes: AccountChange[] };

export type ReleaseOutcome =
  NotReady | { kind: 'not_found' } | { kind: 'released'; changes: AccountChange[] };

export type TradeLookup = NotReady | { kind: 'not_found' } | ({ kind: 'found' } & TradeShares);

export type AccountLookup =
  NotReady | { kind: 'found'; state: AccountState | null; venueHolding: VenueHolding };

export type RebalanceOutcome =
  NotReady | { kind: 'unchanged' } | { kind: 'rebalanced'; changes: AccountChange[] };

/** The state a rebuild writes: holders derived from the live trades in Postgres. */
export interface RebuildPlan {
  accounts: Array<AccountTerms & { holders: HolderRef[] }>;
  trades: Array<{ tradeId: string; maker: BudgetAccount; hedge: BudgetAccount | null }>;
}
