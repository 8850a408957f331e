import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  BUDGET_SHARES_CHANGED,
  budgetSharesSubject,
  type BudgetSharesChanged,
  type ShareHolder,
} from '@sts/budget-client';
import {
  encodeEnvelope,
  envelope,
  type BudgetAccount,
  type BudgetChangeCause,
} from '@sts/contracts';
import { sleep, type Logger, type NatsConnection } from '@sts/platform';
import { BudgetRepository } from '../budget.repository';
import type { AccountChange } from '../budget.types';
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
    const shrinking: BudgetSharesChanged[] = [];
    const rest: BudgetSharesChanged[] = [];
    for (const change of changes) {
      const stillHolds = change.holders.some(
        (h) => h.tradeId === tradeId && h.role === change.role,
      );
      const left: ShareHolder[] =
        tradeId && change.role && !stillHolds ? [{ trade_id: tradeId, role: change.role }] : [];
      // The trade that joined goes last: expanded per holder, the others shrink before it grows.
      const joined = (h: { tradeId: string }) => (h.tradeId === tradeId ? 1 : 0);
      const holders = [...change.holders].sort((a, b) => joined(a) - joined(b));
      (change.after < change.before ? shrinking : rest).push(
        this.message({ ...change, holders }, change.after, cause, left),
      );
    }
    for (const message of [...shrinking, ...rest]) {
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
    this.publish(this.message(state, state.share, cause, []), {});
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

  private message(
    account: BudgetAccount & { version: number; holders: AccountChange['holders'] },
    share: number,
    cause: BudgetChangeCause,
    left: ShareHolder[],
  ): BudgetSharesChanged {
    return {
      venue: account.venue,
      wallet: account.wallet,
      share,
      version: account.version,
      cause,
      holders: account.holders.map((h) => ({ trade_id: h.tradeId, role: h.role })),
      left,
    };
  }

  private publish(change: BudgetSharesChanged, tracing: Tracing): void {
    try {
      this.nc.publish(
        budgetSharesSubject(this.settings.natsPrefix, change),
        encodeEnvelope(envelope(BUDGET_SHARES_CHANGED, change, tracing)),
      );
    } catch (error) {
      // Workers converge through budget.get and the sweep's republish.
      this.logger.warn(
        { venue: change.venue, wallet: change.wallet, err: error },
        'could not publish budget.shares_changed',
      );
    }
  }
}
