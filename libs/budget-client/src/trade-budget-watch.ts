import type { BudgetAccount, BudgetChangeCause, BudgetRole } from '@sts/contracts';
import type { Logger } from '@sts/platform';
import type { TokenBucket } from './token-bucket';
import type { TradeBudget } from './trade-budget';

export interface ShareUpdate {
  tradeId: string;
  role: BudgetRole;
  venue: string;
  wallet: string;
  /** Requests per second; 0 once the trade holds no budget on this account. */
  share: number;
  /** Where the venue has a per-IP limit: the leg's share of it, tokens a minute; else null. */
  pace: number | null;
  version: number;
  /** `fetched` when read by budget.get rather than pushed. */
  cause: BudgetChangeCause | 'fetched';
}

export type ShareListener = (update: ShareUpdate) => void;

export interface TradeBudgetWatchOptions {
  /** How often the shares are read again even without a reconnect. */
  refreshMs?: number;
}

export const DEFAULT_WATCH_REFRESH_MS = 10_000;

/**
 * Until a trade's first read answers, a failed read is tried again after
 * these waits (the last one repeating): a trade taken while the budget
 * service was starting or away holds no share, and its pre-flight waits on
 * it, so it must not wait for the next period.
 */
export const FIRST_READ_RETRY_MS = [250, 500, 1_000, 2_000] as const;

/** The listener a worker passes to watchTrade: each share goes to its leg's bucket. */
export function applyToBuckets(buckets: {
  maker: TokenBucket;
  hedge?: TokenBucket;
}): ShareListener {
  return (update) => {
    const bucket = update.role === 'maker' ? buckets.maker : buckets.hedge;
    bucket?.setRate(spendingRate(update));
  };
}

/**
 * Requests a second a leg may average: its share, or less where its pace (its
 * share of the venue's per-IP limit, a minute) allows less than one a second.
 */
export function spendingRate(update: Pick<ShareUpdate, 'share' | 'pace'>): number {
  return update.pace === null ? update.share : Math.min(update.share, update.pace / 60);
}

/**
 * One account's change as the watches of its holders read it: every holder
 * holds `share`; `joined` and `left` name (as `trade_id|role`) the trades that
 * started or stopped holding it with this change.
 */
export interface AccountShares {
  venue: string;
  wallet: string;
  version: number;
  cause: BudgetChangeCause;
  share: number;
  pace: number | null;
  joined: Set<string>;
  left: Set<string>;
}

interface WatchDependencies {
  fetch(tradeId: string): Promise<TradeBudget | null>;
  /** Subscribes the watch to an account's changes (resolves once the server has the interest). */
  follow(account: BudgetAccount, watch: TradeBudgetWatch): Promise<void>;
  unfollow(account: BudgetAccount, watch: TradeBudgetWatch): void;
  logger?: Logger;
  onClose(watch: TradeBudgetWatch): void;
}

/** One trade's shares as its worker sees them. Created by BudgetClient.watchTrade. */
export class TradeBudgetWatch {
  private readonly versions = new Map<BudgetRole, number>();
  private readonly shares = new Map<BudgetRole, number>();
  /** The accounts this trade holds shares of, learned from budget.get: `venue:wallet`. */
  private readonly followed = new Map<string, BudgetAccount>();
  /**
   * The account (`venue:wallet`, null for none) each leg holds a share of, and
   * the budget version that says so: the newest of what budget.get answered
   * and what the messages naming this trade (`joined`, `left`) said. A message
   * that names nobody applies to the legs holding its account.
   */
  private readonly holding = new Map<BudgetRole, Holding>();
  private refreshTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private failedFirstReads = 0;
  private refreshing?: Promise<void>;
  private closed = false;

  constructor(
    private readonly deps: WatchDependencies,
    readonly tradeId: string,
    private readonly listener: ShareListener,
    private readonly options: TradeBudgetWatchOptions,
  ) {}

  /** The last share applied for a leg; undefined before the first one arrives. */
  current(role: BudgetRole): number | undefined {
    return this.shares.get(role);
  }

  /** Reads the current shares now; resolves after they are applied (or the read failed). */
  refresh(): Promise<void> {
    this.refreshing ??= this.fetchAndApply().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    for (const account of this.followed.values()) {
      this.deps.unfollow(account, this);
    }
    // A timeout until the first refresh, an interval after it: Node clears either way.
    clearInterval(this.refreshTimer);
    clearTimeout(this.retryTimer);
    this.deps.onClose(this);
  }

  /** @internal */
  start(): void {
    this.refreshSoon();
    // A random phase: a worker that took hundreds of trades at once would
    // otherwise read all their shares in the same millisecond, every period.
    const periodMs = this.options.refreshMs ?? DEFAULT_WATCH_REFRESH_MS;
    this.refreshTimer = setTimeout(() => {
      this.refreshSoon();
      this.refreshTimer = setInterval(() => this.refreshSoon(), periodMs);
      this.refreshTimer.unref();
    }, Math.random() * periodMs);
    this.refreshTimer.unref();
  }

  /** @internal */
  refreshSoon(): void {
    void this.refresh();
  }

  /** @internal An account this trade may hold shares of was re-divided. */
  onAccountChange(change: AccountShares): void {
    const account = `${change.venue}:${change.wallet}`;
    for (const role of ['maker', 'hedge'] as const) {
      const holder = `${this.tradeId}|${role}`;
      const update = {
        tradeId: this.tradeId,
        role,
        venue: change.venue,
        wallet: change.wallet,
        share: change.share,
        pace: change.pace,
        version: change.version,
        cause: change.cause,
      };
      if (change.left.has(holder)) {
        // Even behind a newer message (two budget replicas publish in any
        // order): the leg holds nothing from here on, unless it joined again later.
        if (this.learn(role, null, change.version)) {
          update.share = 0;
          this.apply(update, true);
        }
        continue;
      }
      if (change.joined.has(holder)) {
        this.learn(role, account, change.version);
      }
      if (this.holding.get(role)?.account === account) {
        this.apply(update);
      }
    }
  }

  /** Before any share is known, a failed read is tried again soon (FIRST_READ_RETRY_MS). */
  private retryFirstRead(): void {
    if (this.closed || this.shares.size > 0 || this.retryTimer !== undefined) {
      return;
    }
    const step = Math.min(this.failedFirstReads, FIRST_READ_RETRY_MS.length - 1);
    this.failedFirstReads += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.refreshSoon();
    }, FIRST_READ_RETRY_MS[step]);
    this.retryTimer.unref();
  }

  private async fetchAndApply(): Promise<void> {
    if (await this.fetchOnce()) {
      // Changes between that read and the new subscription were missed: read again.
      await this.fetchOnce();
    }
  }

  /** Resolves true when it learned an account it did not follow yet. */
  private async fetchOnce(): Promise<boolean> {
    const knownBefore = new Map([...this.holding].map(([role, held]) => [role, held.version]));
    let budget: TradeBudget | null;
    try {
      budget = await this.deps.fetch(this.tradeId);
    } catch (error) {
      // Keep trading on the last shares: they were never more than the account allows.
      this.deps.logger?.warn(
        { trade_id: this.tradeId, err: error },
        'could not read the trade budget; keeping the last shares',
      );
      this.retryFirstRead();
      return false;
    }
    this.failedFirstReads = 0;
    if (this.closed) {
      return false;
    }
    if (!budget) {
      // Held nowhere (released or swept): a later message naming nobody is not for
      // it. A message that named a leg while the read was out (an adoption) is newer.
      for (const role of ['maker', 'hedge'] as const) {
        const held = this.holding.get(role);
        if (held && held.version === knownBefore.get(role)) {
          this.holding.set(role, { account: null, version: held.version });
        }
      }
      return false;
    }
    for (const [role, share] of [
      ['maker', budget.maker],
      ['hedge', budget.hedge],
    ] as const) {
      // A read older than a message saying the leg left says nothing.
      if (share && this.learn(role, `${share.venue}:${share.wallet}`, share.version)) {
        this.apply({
          tradeId: this.tradeId,
          role,
          venue: share.venue,
          wallet: share.wallet,
          share: share.share,
          pace: share.pace_per_min ?? null,
          version: share.version,
          cause: 'fetched',
        });
      }
    }
    const unfollowed = [budget.maker, budget.hedge].flatMap((share) =>
      share && !this.followed.has(`${share.venue}:${share.wallet}`) ? [share] : [],
    );
    for (const share of unfollowed) {
      const account = { venue: share.venue, wallet: share.wallet };
      this.followed.set(`${share.venue}:${share.wallet}`, account);
      try {
        await this.deps.follow(account, this);
      } catch (error) {
        this.deps.logger?.warn(
          { trade_id: this.tradeId, err: error },
          'could not follow the account; the periodic read keeps the share current',
        );
      }
    }
    return unfollowed.length > 0 && !this.closed;
  }

  /**
   * Records which account a leg holds as of `version`, unless something newer
   * is known; a leg that left is not brought back by a fact of the same version.
   * False when it was not newer.
   */
  private learn(role: BudgetRole, account: string | null, version: number): boolean {
    const known = this.holding.get(role);
    if (known && (version < known.version || (version === known.version && !known.account))) {
      return false;
    }
    this.holding.set(role, { account, version });
    return true;
  }

  /** `evenIfStale`: a leg's 0 on leaving, applied behind a newer share. */
  private apply(update: ShareUpdate, evenIfStale = false): void {
    if (this.closed) {
      return;
    }
    const seen = this.versions.get(update.role);
    if (seen !== undefined && update.version <= seen && !evenIfStale) {
      return;
    }
    this.versions.set(update.role, Math.max(seen ?? update.version, update.version));
    this.shares.set(update.role, update.share);
    try {
      this.listener(update);
    } catch (error) {
      this.deps.logger?.error(
        { trade_id: this.tradeId, err: error },
        'budget share listener threw',
      );
    }
  }
}

interface Holding {
  account: string | null;
  version: number;
}
