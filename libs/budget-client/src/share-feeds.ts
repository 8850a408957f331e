import { decodeEnvelope, type BudgetAccount, type Envelope } from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import {
  BUDGET_SHARES_CHANGED,
  budgetSharesSubject,
  budgetSharesWildcard,
  parseBudgetSharesChanged,
  type BudgetSharesChanged,
} from './budget-shares-changed';
import type { TradeBudget } from './trade-budget';
import {
  TradeBudgetWatch,
  type AccountShares,
  type ShareListener,
  type TradeBudgetWatchOptions,
} from './trade-budget-watch';

/**
 * The pushed side of the budget client: the shares_changed subjects of the
 * accounts its trades' watches follow (one subscription per account, shared
 * by the watches of its holders), and a fresh read for every watch after a
 * NATS reconnect (core NATS loses what was published meanwhile).
 */
export class ShareFeeds {
  private readonly watches = new Set<TradeBudgetWatch>();
  private readonly accountFeeds = new Map<
    string,
    { subscription: { unsubscribe(): void }; watches: Set<TradeBudgetWatch> }
  >();
  private statusLoop?: { stop?: () => void };

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: { natsPrefix: string; logger?: Logger },
    /** budget.get: a watch's first read and its refreshes. */
    private readonly fetch: (tradeId: string) => Promise<TradeBudget | null>,
  ) {}

  /**
   * Follows one trade's shares for its worker: the listener gets the current
   * shares at once (via budget.get), every change of the accounts that read
   * names (one subscription per account, whatever the number of trades
   * watched on it), and a fresh read after each NATS reconnect and every
   * `refreshMs`. Stale messages are dropped by version; while the service is
   * unreachable the last shares stay in force.
   */
  watchTrade(
    tradeId: string,
    listener: ShareListener,
    options: TradeBudgetWatchOptions = {},
  ): TradeBudgetWatch {
    const watch = new TradeBudgetWatch(
      {
        fetch: (id) => this.fetch(id),
        follow: (account, follower) => this.follow(account, follower),
        unfollow: (account, follower) => this.unfollow(account, follower),
        logger: this.options.logger,
        onClose: (closed) => this.watches.delete(closed),
      },
      tradeId,
      listener,
      options,
    );
    this.watches.add(watch);
    this.ensureStatusLoop();
    watch.start();
    return watch;
  }

  /**
   * Every account's changes (operators, tests), as published: one message per
   * account and change, naming who joined and who left. Returns an
   * unsubscribe function.
   */
  onAnyChange(listener: (change: Envelope<BudgetSharesChanged>) => void): () => void {
    const subscription = this.nc.subscribe(budgetSharesWildcard(this.options.natsPrefix), {
      callback: (error, msg) => {
        if (error) {
          return;
        }
        const message = this.decodeShares(msg.data);
        if (message) {
          listener(message);
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  /** Stops every watch. The NATS connection belongs to the caller and stays open. */
  close(): void {
    for (const watch of [...this.watches]) {
      watch.close();
    }
    this.statusLoop?.stop?.();
    this.statusLoop = undefined;
  }

  private async follow(account: BudgetAccount, watch: TradeBudgetWatch): Promise<void> {
    const subject = budgetSharesSubject(this.options.natsPrefix, account);
    let feed = this.accountFeeds.get(subject);
    if (!feed) {
      const watches = new Set<TradeBudgetWatch>();
      const subscription = this.nc.subscribe(subject, {
        callback: (error, msg) => {
          if (error) {
            return;
          }
          const message = this.decodeShares(msg.data);
          if (!message) {
            return;
          }
          const change = sharesByHolder(message.payload);
          for (const follower of watches) {
            follower.onAccountChange(change);
          }
        },
      });
      feed = { subscription, watches };
      this.accountFeeds.set(subject, feed);
    }
    feed.watches.add(watch);
    await this.nc.flush();
  }

  private unfollow(account: BudgetAccount, watch: TradeBudgetWatch): void {
    const subject = budgetSharesSubject(this.options.natsPrefix, account);
    const feed = this.accountFeeds.get(subject);
    if (!feed) {
      return;
    }
    feed.watches.delete(watch);
    if (feed.watches.size > 0) {
      return;
    }
    feed.subscription.unsubscribe();
    this.accountFeeds.delete(subject);
  }

  private decodeShares(data: Uint8Array): Envelope<BudgetSharesChanged> | null {
    try {
      return decodeEnvelope(data, BUDGET_SHARES_CHANGED, parseBudgetSharesChanged);
    } catch (decodeError) {
      this.options.logger?.warn(
        { err: decodeError },
        'dropped an invalid budget.shares_changed message',
      );
      return null;
    }
  }

  private ensureStatusLoop(): void {
    if (this.statusLoop) {
      return;
    }
    const statuses = this.nc.status();
    // The iterator nats returns can be stopped; the declared type hides it.
    this.statusLoop = statuses as { stop?: () => void };
    void (async () => {
      for await (const status of statuses) {
        // After a reconnect, changes published while we were away are lost on
        // core NATS: read the current shares again.
        if (status.type === 'reconnect') {
          for (const watch of this.watches) {
            watch.refreshSoon();
          }
        }
      }
    })().catch((error: unknown) =>
      this.options.logger?.warn({ err: error }, 'budget client status loop ended'),
    );
  }
}

function sharesByHolder(change: BudgetSharesChanged): AccountShares {
  const key = (holder: { trade_id: string; role: string }) => `${holder.trade_id}|${holder.role}`;
  return {
    venue: change.venue,
    wallet: change.wallet,
    version: change.version,
    cause: change.cause,
    share: change.share,
    pace: change.pace_per_min ?? null,
    joined: new Set(change.joined.map(key)),
    left: new Set(change.left.map(key)),
  };
}
