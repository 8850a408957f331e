import type { BudgetAccount, BudgetRole, HolderShare } from '@sts/contracts';

/** A venue's terms for one account, from the venue registry. */
export interface AccountTerms extends BudgetAccount {
  limit: number;
  min: number;
}

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
  before: number;
  after: number;
  /** How many trades hold the account after the change. */
  holderCount: number;
  joined: HolderRef[];
  left: HolderRef[];
  version: number;
}

/** An account's share, its version and how many hold it (what a refresh publishes). */
export interface AccountShareCount extends BudgetAccount {
  share: number;
  version: number;
  holderCount: number;
}

export interface AccountState extends AccountTerms {
  share: number;
  version: number;
  holders: HolderRef[];
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
  | { kind: 'refused'; role: BudgetRole; holders: number }
  | { kind: 'existing'; shares: TradeShares }
  | { kind: 'granted'; shares: TradeShares; changes: AccountChange[] };

export type ReleaseOutcome =
  NotReady | { kind: 'not_found' } | { kind: 'released'; changes: AccountChange[] };

export type TradeLookup = NotReady | { kind: 'not_found' } | ({ kind: 'found' } & TradeShares);

export type AccountLookup = NotReady | { kind: 'found'; state: AccountState | null };

export type RebalanceOutcome =
  NotReady | { kind: 'unchanged' } | { kind: 'rebalanced'; change: AccountChange };

/** The state a rebuild writes: holders derived from the live trades in Postgres. */
export interface RebuildPlan {
  accounts: Array<AccountTerms & { holders: HolderRef[] }>;
  trades: Array<{ tradeId: string; maker: BudgetAccount; hedge: BudgetAccount | null }>;
}
