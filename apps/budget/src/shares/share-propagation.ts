import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { BudgetSharesChanged } from '@sts/budget-client';
import {
  publishSharesChanged,
  sharesChangedMessages,
  sharesChangedOf,
  type AccountChange,
} from '@sts/budget-store';
import type { BudgetAccount, BudgetChangeCause } from '@sts/contracts';
import { sleep, type Logger, type NatsConnection } from '@sts/platform';
import { BudgetRepository } from '../budget.repository';
import { BudgetSettings } from '../config/budget.settings';
import { BUDGET_SETTINGS, LOGGER, NATS } from '../tokens';
import { TradeBudgetRows, type AccountShareState } from './trade-budget-rows';

/** A state to write, or an account whose state is read from the budget store first. */
type RowState = AccountShareState | BudgetAccount;

/** An account alone is read when written, so it is always current; of two states the later version wins. */
const newest = (queued: RowState | undefined, incoming: RowState): RowState => {
  if (!queued || !('version' in incoming)) {
    return incoming;
  }
  if (!('version' in queued)) {
    return queued;
  }
  return incoming.version >= queued.version ? incoming : queued;
};

/**
 * How long a change waits for others before its account row is written: under
 * load the writes of many reserves become one statement (the budget service
 * wrote one statement per two reserves in the gateway bench without it).
 */
const ROW_WRITE_LINGER_MS = 25;

export interface Tracing {
  correlationId?: string;
  causationId?: string;
}

/**
 * Makes a change visible: one `budget.shares_changed` message per re-divided
 * account, naming its holders (accounts whose share shrinks first, so no
 * listener ever sees an account over its limit), then the account's share in
 * Postgres. Its cost is per account, not per holder.
 */
@Injectable()
export class SharePropagation implements BeforeApplicationShutdown {
  /** Per account, the newest state waiting for the next write. */
  private readonly pendingRows = new Map<string, RowState>();
  /** The write loop, while one runs. */
  private writing?: Promise<void>;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly repository: BudgetRepository,
    private readonly rows: TradeBudgetRows,
  ) {}

  /** `tradeId` is the trade whose reserve or release caused the change. */
  announce(
    changes: AccountChange[],
    cause: BudgetChangeCause,
    tradeId: string | null,
    tracing: Tracing = {},
  ): void {
    for (const message of sharesChangedMessages(changes, cause, tradeId)) {
      this.publish(message, tracing);
    }
    this.syncRows(changes);
  }

  /** Republishes an account's current shares (after a rebuild, and on every sweep). */
  async republish(account: BudgetAccount, cause: BudgetChangeCause): Promise<void> {
    const lookup = await this.repository.readAccount(account);
    if (lookup.kind !== 'found' || !lookup.state) {
      return;
    }
    const state = lookup.state;
    this.publish(sharesChangedOf(state, state.share, cause, []), {});
  }

  /**
   * Writes the accounts' shares to Postgres in the background: a change
   * carries its state, an account given alone is read from the budget store
   * when written. One write runs at a time and takes every account changed
   * while the one before ran or lingered, in one statement, each at its
   * newest state: the cost is a statement per write, whatever the number of
   * accounts, changes or holders.
   */
  syncRows(accounts: Array<AccountChange | BudgetAccount>): void {
    for (const account of accounts) {
      const key = `${account.venue}:${account.wallet}`;
      const state: RowState =
        'after' in account
          ? {
              venue: account.venue,
              wallet: account.wallet,
              share: account.after,
              version: account.version,
            }
          : { venue: account.venue, wallet: account.wallet };
      this.pendingRows.set(key, newest(this.pendingRows.get(key), state));
    }
    this.startWriting();
  }

  /** Writes the accounts' current shares now (and fails if the write failed). */
  async writeRowsNow(accounts: BudgetAccount[]): Promise<void> {
    await this.writeRows(accounts, true);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writing;
  }

  /** Starts the write loop unless it runs; it looks again once it has stopped. */
  private startWriting(): void {
    if (this.writing || this.pendingRows.size === 0) {
      return;
    }
    this.writing = this.writePending().finally(() => {
      this.writing = undefined;
      this.startWriting();
    });
  }

  private async writePending(): Promise<void> {
    while (this.pendingRows.size > 0) {
      // Changes that arrive meanwhile join this write (a share shown up to this much later).
      await sleep(ROW_WRITE_LINGER_MS);
      const batch = [...this.pendingRows.values()];
      this.pendingRows.clear();
      await this.writeRows(batch);
    }
  }

  private async writeRows(targets: RowState[], rethrow = false): Promise<void> {
    try {
      const states = await Promise.all(
        targets.map(async (target): Promise<AccountShareState | null> => {
          if ('share' in target) {
            return target;
          }
          const lookup = await this.repository.readAccount(target);
          return lookup.kind === 'found' ? lookup.state : null;
        }),
      );
      const written = await this.rows.writeShares(
        states.filter((state): state is AccountShareState => state !== null),
      );
      if (written > 0) {
        this.logger.debug({ accounts: written }, 'account shares written');
      }
    } catch (error) {
      // The sweep writes every account's shares again: a missed write heals there.
      this.logger.warn(
        { accounts: targets.length, err: error },
        'could not write the account shares; the next sweep retries',
      );
      if (rethrow) {
        throw error;
      }
    }
  }

  private publish(change: BudgetSharesChanged, tracing: Tracing): void {
    try {
      publishSharesChanged(this.nc, this.settings.natsPrefix, change, tracing);
    } catch (error) {
      // Workers converge through budget.get and the sweep's republish.
      this.logger.warn(
        { venue: change.venue, wallet: change.wallet, err: error },
        'could not publish budget.shares_changed',
      );
    }
  }
}
