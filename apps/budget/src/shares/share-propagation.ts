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
import type { Logger, NatsConnection } from '@sts/platform';
import { BudgetRepository } from '../budget.repository';
import type { AccountChange } from '../budget.types';
import { BudgetSettings } from '../config/budget.settings';
import { BUDGET_SETTINGS, LOGGER, NATS } from '../tokens';
import { TradeBudgetRows, type AccountShareState } from './trade-budget-rows';

/** A state to write, or an account whose state is read from the budget store first. */
type RowState = AccountShareState | BudgetAccount;

interface RowWriter {
  running: Promise<void>;
  next: RowState | undefined;
}

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

export interface Tracing {
  correlationId?: string;
  causationId?: string;
}

/**
 * Makes a change visible: one `budget.shares_changed` message per re-divided
 * account, naming its holders (accounts whose share shrinks first, so no
 * listener ever sees an account over its limit), then the live trades' rows
 * in Postgres. Its cost is per account, not per holder.
 */
@Injectable()
export class SharePropagation implements BeforeApplicationShutdown {
  /** Per account: the row write running now, and the state to write after it. */
  private readonly rowWriters = new Map<string, RowWriter>();

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
   * Writes the accounts' shares into their live trades' rows, in the
   * background: a change carries its state, an account given alone is read
   * from the budget store. Per account one write runs at a time and the
   * latest state waiting behind it replaces any older one, so a burst of
   * changes costs one write running plus at most one queued.
   */
  syncRows(accounts: Array<AccountChange | BudgetAccount>): void {
    for (const account of accounts) {
      const key = `${account.venue}:${account.wallet}`;
      const state: RowState =
        'after' in account
          ? { ...account, share: account.after }
          : { venue: account.venue, wallet: account.wallet };
      const writer = this.rowWriters.get(key);
      if (writer) {
        writer.next = newest(writer.next, state);
        continue;
      }
      const entry: RowWriter = { running: Promise.resolve(), next: state };
      const loop = async (): Promise<void> => {
        while (entry.next) {
          const next = entry.next;
          entry.next = undefined;
          await this.writeRows(next);
        }
        this.rowWriters.delete(key);
      };
      this.rowWriters.set(key, entry);
      entry.running = loop();
    }
  }

  /** Writes the accounts' current shares now (and fails if any write failed). */
  async writeRowsNow(accounts: BudgetAccount[]): Promise<void> {
    await Promise.all(accounts.map((account) => this.writeRows(account, true)));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.rowWriters.values()].map((writer) => writer.running));
  }

  private async writeRows(target: RowState, rethrow = false): Promise<void> {
    try {
      let state: AccountShareState | null;
      if ('share' in target) {
        state = target;
      } else {
        const lookup = await this.repository.readAccount(target);
        state = lookup.kind === 'found' ? lookup.state : null;
      }
      if (!state) {
        return;
      }
      const updated = await this.rows.writeShares(state);
      if (updated > 0) {
        this.logger.debug({ venue: target.venue, updated }, 'trade rows show the new shares');
      }
    } catch (error) {
      // The sweep writes every account's shares again: a missed write heals there.
      this.logger.warn(
        { venue: target.venue, err: error },
        'could not write shares into the trade rows; the next sweep retries',
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
