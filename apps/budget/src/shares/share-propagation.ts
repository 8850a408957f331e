import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  BUDGET_CHANGED,
  budgetChangedSubject,
  encodeEnvelope,
  envelope,
  type BudgetAccount,
  type BudgetChangeCause,
  type BudgetChanged,
  type BudgetRole,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import { BudgetRepository } from '../budget.repository';
import type { AccountChange } from '../budget.types';
import { BudgetSettings } from '../config/budget.settings';
import { BUDGET_SETTINGS, LOGGER, NATS } from '../tokens';
import { TradeBudgetRows } from './trade-budget-rows';

export interface Tracing {
  correlationId?: string;
  causationId?: string;
}

/**
 * Makes a change visible: one `budget.changed` message per holder of every
 * re-divided account (shrinking shares first, so no listener ever sees the
 * account over its limit), then the live trades' rows in Postgres.
 */
@Injectable()
export class SharePropagation implements BeforeApplicationShutdown {
  /** Per account: the row write running now, and whether another change came in meanwhile. */
  private readonly rowWriters = new Map<string, { running: Promise<void>; again: boolean }>();

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
    const shrinking: BudgetChanged[] = [];
    const rest: BudgetChanged[] = [];
    for (const change of changes) {
      const stillHolds = change.holders.some(
        (h) => h.tradeId === tradeId && h.role === change.role,
      );
      if (tradeId && change.role && !stillHolds) {
        shrinking.push(this.message(change, tradeId, change.role, 0, cause));
      }
      for (const holder of change.holders) {
        const before = holder.tradeId === tradeId ? 0 : change.before;
        const message = this.message(change, holder.tradeId, holder.role, change.after, cause);
        (change.after < before ? shrinking : rest).push(message);
      }
    }
    for (const message of [...shrinking, ...rest]) this.publish(message, tracing);
    this.syncRows(changes);
  }

  /** Republishes an account's current shares (after a rebuild, and on every sweep). */
  async republish(account: BudgetAccount, cause: BudgetChangeCause): Promise<void> {
    const lookup = await this.repository.readAccount(account);
    if (lookup.kind !== 'found' || !lookup.state) return;
    const state = lookup.state;
    const change: AccountChange = { ...state, role: null, before: state.share, after: state.share };
    for (const holder of state.holders) {
      this.publish(this.message(change, holder.tradeId, holder.role, state.share, cause), {});
    }
  }

  /**
   * Writes the accounts' shares into their live trades' rows, in the
   * background. Each write reads the latest shares, so a burst of changes on
   * one account costs one write running plus at most one queued behind it.
   */
  syncRows(accounts: BudgetAccount[]): void {
    for (const account of accounts) {
      const key = `${account.venue}:${account.wallet}`;
      const writer = this.rowWriters.get(key);
      if (writer) {
        writer.again = true;
        continue;
      }
      const entry = { running: Promise.resolve(), again: false };
      const loop = async (): Promise<void> => {
        do {
          entry.again = false;
          await this.writeRows(account);
        } while (entry.again);
        this.rowWriters.delete(key);
      };
      entry.running = loop();
      this.rowWriters.set(key, entry);
    }
  }

  /** Waits for the rows being written now (and fails if any write failed). */
  async writeRowsNow(accounts: BudgetAccount[]): Promise<void> {
    await Promise.all(accounts.map((account) => this.writeRows(account, true)));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.rowWriters.values()].map((writer) => writer.running));
  }

  private async writeRows(account: BudgetAccount, rethrow = false): Promise<void> {
    try {
      const updated = await this.rows.writeShares(account, async () => {
        const lookup = await this.repository.readAccount(account);
        return lookup.kind === 'found' ? lookup.state : null;
      });
      if (updated > 0) {
        this.logger.debug({ venue: account.venue, updated }, 'trade rows show the new shares');
      }
    } catch (error) {
      // The sweep writes every account's shares again: a missed write heals there.
      this.logger.warn(
        { venue: account.venue, err: error },
        'could not write shares into the trade rows; the next sweep retries',
      );
      if (rethrow) throw error;
    }
  }

  private message(
    account: BudgetAccount & { version: number },
    tradeId: string,
    role: BudgetRole,
    share: number,
    cause: BudgetChangeCause,
  ): BudgetChanged {
    return {
      trade_id: tradeId,
      role,
      venue: account.venue,
      wallet: account.wallet,
      share,
      version: account.version,
      cause,
    };
  }

  private publish(change: BudgetChanged, tracing: Tracing): void {
    try {
      this.nc.publish(
        budgetChangedSubject(this.settings.natsPrefix, change.trade_id),
        encodeEnvelope(envelope(BUDGET_CHANGED, change, tracing)),
      );
    } catch (error) {
      // Workers converge through budget.get and the sweep's republish.
      this.logger.warn(
        { trade_id: change.trade_id, err: error },
        'could not publish budget.changed',
      );
    }
  }
}
