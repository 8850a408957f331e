import type { BudgetSharesChanged } from '@sts/budget-client';
import type { BudgetAccount, BudgetChangeCause, BudgetRole, Envelope } from '@sts/contracts';
import type { VenueId } from '@sts/domain';

/** One trade's share as a listener draws it from an account's message. */
export interface TradeShareChange extends BudgetAccount {
  trade_id: string;
  role: BudgetRole;
  share: number;
  version: number;
  cause: BudgetChangeCause;
}

/** What one message said of its account, and the venue limit it is judged by. */
interface AccountWord {
  version: number;
  share: number;
  /** Tokens a minute each holder may spend: its share's, or its pace where that is less. */
  perMin: number;
  holderCount: number;
  venueLimit: number | null;
}

interface LedgerAccount extends BudgetAccount {
  version: number;
  share: number;
  /** `trade_id|role` of every trade the messages say holds the account. */
  holders: Set<string>;
  /** Every message's word on the account, as received. */
  words: AccountWord[];
}

/**
 * Follows every budget.shares_changed message the way a fleet of workers
 * would: it learns an account's holders only from the messages (`joined`,
 * `left`; a leave is final, whatever the order of arrival) and applies the
 * newest message's share to every holder it knows. `received` holds each
 * message as the per-trade updates a listener draws from it.
 *
 * It judges the budget's central invariant by the service's own versions:
 * - each message: its account's share times its holder count within the
 *   account's limit;
 * - each version (`takeViolations`): a venue with a per-IP limit, every
 *   account's share times holders as of that version (its newest message at
 *   or before it), summed, within that limit. A change's accounts carry one
 *   version, so this is the venue as Redis held it after each change.
 *
 * Not by order of arrival across accounts: two replicas publish in any order,
 * and a sweep's `refresh` read after a release can be published before the
 * release's own message, so a listener may hear the others grow before it
 * hears the leaver leave (apps/budget/README.md). That order costs nothing
 * real (the leaver stopped before it released; a stale word is dropped by
 * version), and a check by arrival called it an over-division.
 */
export class ShareLedger {
  private readonly accounts = new Map<string, LedgerAccount>();
  private readonly gone = new Set<string>();
  private readonly arrivalViolations: string[] = [];
  /** Per pool, the newest version `takeViolations` has judged. */
  private readonly judgedTo = new Map<string, number>();
  readonly messages: BudgetSharesChanged[] = [];
  readonly received: TradeShareChange[] = [];

  /**
   * `poolOf`: which accounts share a venue limit (the egress plan's
   * `<venue>@<egress>`); by default every account of a venue, one egress.
   */
  constructor(
    private readonly limits: (account: BudgetAccount) => number,
    private readonly venueLimits: (venue: VenueId) => number | null = () => null,
    private readonly poolOf: (account: BudgetAccount) => string = (account) => account.venue,
  ) {}

  readonly onChange = (message: Envelope<BudgetSharesChanged>): void => {
    const change = message.payload;
    this.messages.push(change);
    const known = this.accountOf(change);
    this.applyHolders(known, change);
    if (change.version >= known.version) {
      known.version = change.version;
      known.share = change.share;
      for (const key of known.holders) {
        const [tradeId, role] = key.split('|') as [string, BudgetRole];
        this.received.push({
          ...this.baseOf(change),
          trade_id: tradeId,
          role,
          share: change.share,
        });
      }
    }
    known.words.push({
      version: change.version,
      share: change.share,
      perMin: Math.min(change.share * 60, change.pace_per_min ?? Infinity),
      holderCount: change.holder_count,
      venueLimit: this.venueLimits(change.venue),
    });
    const limit = this.limits(change);
    if (change.share * change.holder_count > limit) {
      this.arrivalViolations.push(
        `${change.venue}:${change.wallet}: ${change.holder_count} x ${change.share} > ${limit} after v${change.version}`,
      );
    }
  };

  /**
   * Every violation since the last call: those judged on arrival, then each
   * venue's versions not judged yet, then each account whose holders, as the
   * messages name them, exceed its limit at its newest share. Call it once
   * the messages of interest have arrived.
   */
  takeViolations(): string[] {
    const found = this.arrivalViolations.splice(0);
    const pools = new Set([...this.accounts.values()].map((account) => this.poolOf(account)));
    for (const pool of pools) {
      found.push(...this.venueViolations(pool));
    }
    for (const [accountId, known] of this.accounts) {
      const limit = this.limits(known);
      if (known.share * known.holders.size > limit) {
        found.push(`${accountId}: ${known.holders.size} named x ${known.share} > ${limit}`);
      }
    }
    return found;
  }

  /** The sum over a venue's accounts of share x holders, as the messages tell it. */
  venueTotal(venue: VenueId): number {
    let total = 0;
    for (const account of this.accounts.values()) {
      total += account.venue === venue ? account.share * account.holders.size : 0;
    }
    return total;
  }

  /** The sum over a pool's accounts (`poolOf`) of share x holders, as the messages tell it. */
  poolTotal(pool: string): number {
    let total = 0;
    for (const account of this.accounts.values()) {
      total += this.poolOf(account) === pool ? account.share * account.holders.size : 0;
    }
    return total;
  }

  /** What a pool's holders may spend together a minute, by each account's newest word. */
  poolSpendPerMin(pool: string): number {
    let total = 0;
    for (const account of this.accounts.values()) {
      const word = account.words.at(-1);
      total += this.poolOf(account) === pool && word ? word.perMin * account.holders.size : 0;
    }
    return total;
  }

  total(account: BudgetAccount): number {
    const known = this.accounts.get(`${account.venue}:${account.wallet}`);
    return known ? known.share * known.holders.size : 0;
  }

  shareOf(tradeId: string, role: 'maker' | 'hedge' = 'maker'): number | undefined {
    const key = `${tradeId}|${role}`;
    for (const known of this.accounts.values()) {
      if (known.holders.has(key)) {
        return known.share;
      }
    }
    return this.gone.has(key) ? 0 : undefined;
  }

  private accountOf(change: BudgetSharesChanged): LedgerAccount {
    const accountId = `${change.venue}:${change.wallet}`;
    let known = this.accounts.get(accountId);
    if (!known) {
      const { venue, wallet } = change;
      known = { venue, wallet, version: -1, share: 0, holders: new Set(), words: [] };
      this.accounts.set(accountId, known);
    }
    return known;
  }

  private applyHolders(known: LedgerAccount, change: BudgetSharesChanged): void {
    for (const holder of change.left) {
      const key = `${holder.trade_id}|${holder.role}`;
      known.holders.delete(key);
      this.gone.add(key);
      this.received.push({ ...this.baseOf(change), ...holder, share: 0 });
    }
    for (const holder of change.joined) {
      const key = `${holder.trade_id}|${holder.role}`;
      if (!this.gone.has(key)) {
        known.holders.add(key);
      }
    }
  }

  private baseOf(change: BudgetSharesChanged) {
    const { venue, wallet, version, cause } = change;
    return { venue, wallet, version, cause };
  }

  /** The pool's versions after the last judged one, each as Redis held it then. */
  private venueViolations(pool: string): string[] {
    const accounts = [...this.accounts.values()].filter((account) => this.poolOf(account) === pool);
    const from = this.judgedTo.get(pool) ?? -1;
    const versions = [
      ...new Set(accounts.flatMap((account) => account.words.map((word) => word.version))),
    ]
      .filter((version) => version > from)
      .sort((a, b) => a - b);
    const found: string[] = [];
    for (const version of versions) {
      const words = accounts.flatMap((account) => {
        const word = newestAtOrBefore(account.words, version);
        return word ? [word] : [];
      });
      const limit = words.find((word) => word.version === version)?.venueLimit ?? null;
      // Judged a minute at a time, as the venues count a per-IP limit (a pace may be under 1/s).
      const said = words.reduce((sum, word) => sum + word.perMin * word.holderCount, 0);
      if (limit !== null && said > limit * 60) {
        found.push(`${pool}: ${said} a minute at v${version} > venue limit ${limit * 60}`);
      }
    }
    this.judgedTo.set(pool, versions.at(-1) ?? from);
    return found;
  }
}

/** The word of the newest version at or before `version` (the last received of that version). */
function newestAtOrBefore(words: AccountWord[], version: number): AccountWord | undefined {
  let best: AccountWord | undefined;
  for (const word of words) {
    if (word.version <= version && (!best || word.version >= best.version)) {
      best = word;
    }
  }
  return best;
}
