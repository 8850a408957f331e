import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { isVenueId } from '@sts/domain';
import { AppError, type Logger } from '@sts/platform';
import { BudgetRepository } from '../../budget.repository';
import {
  accountId,
  divisionOf,
  type HeldAccount,
  type HolderRef,
  type NotReady,
  type RebuildPlan,
} from '@sts/budget-store';
import { SharePropagation } from '../../shares/share-propagation';
import { TradeBudgetRows, type TradeAccountsRow } from '../../shares/trade-budget-rows';
import { LOGGER } from '../../tokens';
import { VenueTerms } from '../../venue-terms';

const REBUILD_LOCK_MS = 30_000;
const WAIT_FOR_OTHER_REBUILD_MS = 10_000;

/**
 * Rebuilds the budget state from the live trades in Postgres when Redis has
 * none (first start, FLUSHALL, a Redis restart without persistence). Every
 * script refuses to run until the ready marker exists, so operations call
 * `whenReady`, which rebuilds once (one replica at a time) and retries.
 */
@Injectable()
export class RebuildBudgetsUseCase {
  private running?: Promise<void>;
  private readonly owner = randomUUID();

  constructor(
    private readonly repository: BudgetRepository,
    private readonly rows: TradeBudgetRows,
    private readonly terms: VenueTerms,
    private readonly propagation: SharePropagation,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Runs `operation`; when the state is missing, rebuilds it and runs it once more. */
  async whenReady<T extends { kind: string }>(
    operation: () => Promise<T>,
  ): Promise<Exclude<T, NotReady>> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const outcome = await operation();
      if (outcome.kind !== 'not_ready') {
        return outcome as Exclude<T, NotReady>;
      }
      await this.ensureReady();
    }
    throw new AppError('budget_unavailable', 'the budget state is being rebuilt; try again');
  }

  ensureReady(): Promise<void> {
    this.running ??= this.rebuildIfMissing().finally(() => (this.running = undefined));
    return this.running;
  }

  private async rebuildIfMissing(): Promise<void> {
    const deadline = Date.now() + WAIT_FOR_OTHER_REBUILD_MS;
    while (!(await this.repository.isReady())) {
      if (await this.repository.tryLock('rebuild', this.owner, REBUILD_LOCK_MS)) {
        try {
          await this.rebuild();
        } finally {
          await this.repository.unlock('rebuild', this.owner);
        }
        return;
      }
      // Another replica is rebuilding: wait for its marker rather than race it.
      if (Date.now() > deadline) {
        throw new AppError('budget_unavailable', 'the budget state is being rebuilt; try again');
      }
      await sleep(100);
    }
  }

  private async rebuild(): Promise<void> {
    const started = Date.now();
    let live: TradeAccountsRow[];
    try {
      live = await this.rows.liveTrades();
    } catch (error) {
      throw new AppError('budget_unavailable', 'cannot read the live trades to rebuild budgets', {
        cause: error,
      });
    }
    const plan = this.planFrom(live);
    const outcome = await this.repository.rebuild(plan, Date.now());
    if (outcome === 'already') {
      return;
    }
    this.logger.warn(
      { trades: plan.trades.length, accounts: plan.accounts.length, ms: Date.now() - started },
      'budget state rebuilt from the live trades in Postgres',
    );
    await this.propagation.republish(plan.accounts, 'rebuilt');
    this.propagation.syncRows(plan.accounts);
    await this.holdHedges(plan);
  }

  /** The hedge shares the rebuild gave to trades whose rows had none (the rebuild's division). */
  private async holdHedges(plan: RebuildPlan): Promise<void> {
    const { shares } = divisionOf(plan.accounts);
    const held = plan.trades.flatMap(({ tradeId, hedge }) =>
      hedge ? [{ tradeId, share: shares.get(accountId(hedge)) ?? 0 }] : [],
    );
    await this.rows
      .holdHedges(held)
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not give hedge budgets to the rebuilt trades'),
      );
  }

  private planFrom(live: TradeAccountsRow[]): RebuildPlan {
    const accounts = new Map<string, HeldAccount>();
    const hold = (venue: string, wallet: string, holder: HolderRef): void => {
      if (!isVenueId(venue)) {
        return;
      }
      const key = `${venue}:${wallet}`;
      const entry = accounts.get(key) ?? { ...this.terms.of({ venue, wallet }), holders: [] };
      entry.holders.push(holder);
      accounts.set(key, entry);
    };
    const trades: RebuildPlan['trades'] = [];
    for (const row of live) {
      if (!isVenueId(row.maker_exchange) || !isVenueId(row.hedge_exchange)) {
        this.logger.error({ trade_id: row.id }, 'live trade on an unknown venue holds no budget');
        continue;
      }
      const maker = { venue: row.maker_exchange, wallet: row.maker_wallet };
      const hedgeAccount = { venue: row.hedge_exchange, wallet: row.hedge_wallet };
      const hedge = this.terms.hedgeHolds(hedgeAccount) ? hedgeAccount : null;
      hold(maker.venue, maker.wallet, { tradeId: row.id, role: 'maker' });
      if (hedge) {
        hold(hedge.venue, hedge.wallet, { tradeId: row.id, role: 'hedge' });
      }
      trades.push({ tradeId: row.id, maker, hedge });
    }
    return { accounts: [...accounts.values()], trades };
  }
}
