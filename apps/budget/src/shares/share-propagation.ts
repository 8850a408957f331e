import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { BudgetSharesChanged } from '@sts/budget-client';
import {
  publishSharesChanged,
  sharesChangedMessages,
  sharesRefreshOf,
  type AccountChange,
} from '@sts/budget-store';
import type { BudgetAccount, BudgetChangeCause } from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import type { DataSource } from 'typeorm';
import { BudgetRepository } from '../budget.repository';
import { BudgetSettings } from '../config/budget.settings';
import { AccountShareWriter } from './account-share-writer';
import { BUDGET_SETTINGS, DATA_SOURCE, LOGGER, NATS } from '../tokens';

export interface Tracing {
  correlationId?: string;
  causationId?: string;
}

/**
 * Makes a change visible: one `budget.shares_changed` message per re-divided
 * account, naming only the trades that joined or left it (accounts whose
 * share shrinks first), then the account's share in Postgres. Its cost is per
 * account, whatever the number of holders.
 */
@Injectable()
export class SharePropagation implements BeforeApplicationShutdown {
  /** The accounts' rows in Postgres, written in the background. */
  private readonly rowWriter: AccountShareWriter;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly repository: BudgetRepository,
    @Inject(DATA_SOURCE) dataSource: DataSource,
  ) {
    this.rowWriter = new AccountShareWriter(dataSource, {
      resolve: (account) => this.repository.readShare(account as BudgetAccount),
      onWritten: (accounts) => {
        if (accounts > 0) {
          this.logger.debug({ accounts }, 'account shares written');
        }
      },
      // The sweep writes every account's shares again: a missed write heals there.
      onError: (error, accounts) =>
        this.logger.warn(
          { accounts, err: error },
          'could not write the account shares; the next sweep retries',
        ),
    });
  }

  announce(changes: AccountChange[], cause: BudgetChangeCause, tracing: Tracing = {}): void {
    for (const message of sharesChangedMessages(changes, cause)) {
      this.publish(message, tracing);
    }
    this.syncRows(changes);
  }

  /**
   * Republishes the accounts' current shares (after a rebuild, and on every
   * sweep): one Redis round trip and one message per account, naming nobody,
   * whatever the number of holders.
   */
  async republish(accounts: BudgetAccount[], cause: BudgetChangeCause): Promise<void> {
    for (const state of await this.repository.readShareCounts(accounts)) {
      this.publish(sharesRefreshOf(state, cause), {});
    }
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
    this.rowWriter.queue(
      accounts.map((account) =>
        'after' in account
          ? {
              venue: account.venue,
              wallet: account.wallet,
              share: account.after,
              version: account.version,
            }
          : { venue: account.venue, wallet: account.wallet },
      ),
    );
  }

  /** Writes the accounts' current shares now (and fails if the write failed). */
  writeRowsNow(accounts: BudgetAccount[]): Promise<void> {
    return this.rowWriter.writeNow(accounts);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rowWriter.flush();
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
