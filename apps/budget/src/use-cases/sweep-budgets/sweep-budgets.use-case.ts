import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { BudgetAccount } from '@sts/contracts';
import { isLiveTradeStatus, isTradeStatus, isVenueId, VENUE_IDS } from '@sts/domain';
import type { Logger } from '@sts/platform';
import { BudgetRepository, type HeldSince } from '../../budget.repository';
import { BudgetSettings } from '../../config/budget.settings';
import { SharePropagation } from '../../shares/share-propagation';
import { TradeBudgetRows, type TradeAccountsRow } from '../../shares/trade-budget-rows';
import { BUDGET_SETTINGS, LOGGER } from '../../tokens';
import { VenueTerms } from '../../venue-terms';
import { RebuildBudgetsUseCase } from '../rebuild-budgets/rebuild-budgets.use-case';
import { ReleaseBudgetUseCase } from '../release-budget/release-budget.use-case';

export interface SweepReport {
  swept: number;
  adopted: number;
  resized: number;
  accounts: number;
}

/**
 * Keeps the holders equal to the live trades in Postgres:
 * - a holder whose trade is terminal (its worker died before releasing), or
 *   whose trade row never appeared within the grace period, is released;
 * - a live trade without a holder (a reservation lost to a rebuild race) is
 *   adopted, even under the minimum: it is running and must be counted;
 * - a venue whose limits changed in the venue registry (per account, or its
 *   per-IP limit, which spans its accounts on one egress) has its accounts
 *   re-divided, and an account the egress plan moved joins its new pool;
 * then every share is republished and written to the account rows, so a
 * worker or row that missed a change converges within one interval.
 * One replica sweeps at a time (a Redis lease).
 */
@Injectable()
export class SweepBudgetsUseCase {
  private readonly owner = randomUUID();

  constructor(
    private readonly repository: BudgetRepository,
    private readonly rows: TradeBudgetRows,
    private readonly readiness: RebuildBudgetsUseCase,
    private readonly release: ReleaseBudgetUseCase,
    private readonly propagation: SharePropagation,
    private readonly terms: VenueTerms,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Null when another replica holds the sweep lease. */
  async run(): Promise<SweepReport | null> {
    const leased = await this.repository.tryLock(
      'sweep',
      this.owner,
      Math.max(this.settings.sweepIntervalMs, 1_000),
    );
    if (!leased) {
      return null;
    }
    try {
      await this.readiness.ensureReady();
      // One read of each side, shared by both steps.
      const held = await this.repository.listHeldTrades();
      const rows = await this.rows.liveOrAmong(held.map((trade) => trade.tradeId));
      const swept = await this.releaseEnded(held, new Map(rows.map((row) => [row.id, row])));
      const adopted = await this.adoptUnheld(rows, new Set(held.map((trade) => trade.tradeId)));
      const accounts = await this.repository.listAccounts();
      const resized = await this.resize(accounts);
      await this.propagation.republish(accounts, 'refresh');
      await this.propagation.writeRowsNow(accounts);
      const report = { swept, adopted, resized, accounts: accounts.length };
      if (swept + adopted + resized > 0) {
        this.logger.info(report, 'budget sweep changed holders');
      }
      return report;
    } finally {
      await this.repository.unlock('sweep', this.owner).catch(() => undefined);
    }
  }

  /**
   * Re-divides each venue's accounts by the registry's terms now (a limit,
   * minimum or per-IP limit changed) and the egress plan now (an account
   * moved to another egress between boots): one script per venue, every
   * account of the venue at once, since a per-IP limit spans the accounts of
   * an egress and a move changes two. Answers how many accounts changed.
   */
  private async resize(accounts: BudgetAccount[]): Promise<number> {
    let resized = 0;
    const egresses = this.terms.egresses();
    for (const venue of VENUE_IDS) {
      const planned = accounts
        .filter((a) => a.venue === venue)
        .map((a) => ({ wallet: a.wallet, egress: this.terms.of(a).egress }));
      const outcome = await this.repository.rebalance(this.terms.ofVenue(venue), planned, egresses);
      if (outcome.kind === 'rebalanced') {
        resized += outcome.changes.length;
        this.propagation.announce(outcome.changes, 'resized');
      }
    }
    return resized;
  }

  private async releaseEnded(
    held: HeldSince[],
    rows: Map<string, TradeAccountsRow>,
  ): Promise<number> {
    const orphanBefore = Date.now() - this.settings.holderGraceMs;
    let swept = 0;
    for (const trade of held) {
      const row = rows.get(trade.tradeId);
      const ended =
        row !== undefined && !(isTradeStatus(row.status) && isLiveTradeStatus(row.status));
      const orphan = row === undefined && trade.reservedAtMs < orphanBefore;
      if (!ended && !orphan) {
        continue;
      }
      if (await this.release.release(trade.tradeId, 'swept')) {
        swept += 1;
        this.logger.info(
          { trade_id: trade.tradeId, status: row?.status ?? 'missing' },
          'swept the budget of a trade that no longer runs',
        );
      }
    }
    return swept;
  }

  /** `rows`: the live trades, and others; `holding`: the trades that held budget at the read. */
  private async adoptUnheld(rows: TradeAccountsRow[], holding: Set<string>): Promise<number> {
    const live = rows.filter((row) => isTradeStatus(row.status) && isLiveTradeStatus(row.status));
    let adopted = 0;
    for (const row of live) {
      if (holding.has(row.id) || !(await this.adopt(row))) {
        continue;
      }
      adopted += 1;
    }
    return adopted;
  }

  private async adopt(row: TradeAccountsRow): Promise<boolean> {
    if (!isVenueId(row.maker_exchange) || !isVenueId(row.hedge_exchange)) {
      return false;
    }
    const maker = this.terms.of({ venue: row.maker_exchange, wallet: row.maker_wallet });
    const hedgeAccount = { venue: row.hedge_exchange, wallet: row.hedge_wallet };
    const hedge = this.terms.hedgeHolds(hedgeAccount) ? this.terms.of(hedgeAccount) : null;
    const outcome = await this.readiness.whenReady(() =>
      this.repository.reserve(row.id, maker, hedge, Date.now(), true),
    );
    if (outcome.kind !== 'granted') {
      return false;
    }
    this.logger.warn(
      { trade_id: row.id, rate_budget: outcome.shares.maker.share },
      'adopted a live trade that held no budget',
    );
    this.propagation.announce(outcome.changes, 'adopted');
    if (outcome.shares.hedge) {
      await this.rows.holdHedges([{ tradeId: row.id, share: outcome.shares.hedge.share }]);
    }
    return true;
  }
}
