import { Inject, Injectable } from '@nestjs/common';
import type {
  BudgetRefused,
  BudgetReserveBatchRequest,
  BudgetReserveBatchResult,
  BudgetReserveRequest,
  BudgetReserveResult,
} from '@sts/contracts';
import { mergedChanges, type AccountTerms, type ReserveOutcome } from '@sts/budget-store';
import type { Logger } from '@sts/platform';
import { BudgetRepository } from '../../budget.repository';
import { SharePropagation, type Tracing } from '../../shares/share-propagation';
import { LOGGER } from '../../tokens';
import { VenueTerms } from '../../venue-terms';
import { RebuildBudgetsUseCase } from '../rebuild-budgets/rebuild-budgets.use-case';

interface Reservation {
  tradeId: string;
  maker: AccountTerms;
  hedge: AccountTerms | null;
}

/**
 * A new trade asks for its shares: floor(limit / (holders + 1)) on its maker
 * account and, where the hedge venue shares its limit, on its hedge account,
 * each capped by its venue's per-IP limit divided among every holder of the
 * venue on the account's egress address (the pool's other accounts shrink
 * with it). Refused, with nothing
 * changed, when either term would fall under the venue's min_trade_budget.
 */
@Injectable()
export class ReserveBudgetUseCase {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly readiness: RebuildBudgetsUseCase,
    private readonly propagation: SharePropagation,
    private readonly terms: VenueTerms,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(request: BudgetReserveRequest, tracing: Tracing): Promise<BudgetReserveResult> {
    const reservation = this.reservationOf(request);
    const outcome = await this.readiness.whenReady(() =>
      this.repository.reserve(
        reservation.tradeId,
        reservation.maker,
        reservation.hedge,
        Date.now(),
        false,
      ),
    );
    if (outcome.kind === 'granted') {
      this.propagation.announce(outcome.changes, 'reserved', tracing);
    }
    return this.answer(reservation, outcome, tracing);
  }

  /**
   * A group's reservations: one Redis round trip, each answered as `execute`
   * would answer it, each changed account announced once for the batch.
   */
  async executeBatch(
    batch: BudgetReserveBatchRequest,
    tracing: Tracing,
  ): Promise<BudgetReserveBatchResult> {
    const reservations = batch.reservations.map((request) => this.reservationOf(request));
    const outcomes = await this.reserveAll(reservations);
    const changes = outcomes.flatMap((outcome) =>
      outcome.kind === 'granted' ? outcome.changes : [],
    );
    if (changes.length > 0) {
      this.propagation.announce(mergedChanges(changes), 'reserved', tracing);
    }
    return {
      outcome: 'answered',
      results: reservations.map((reservation, i) =>
        this.answer(reservation, outcomes[i]!, tracing),
      ),
    };
  }

  /** Runs the batch; what found the state missing runs once more after the rebuild. */
  private async reserveAll(reservations: Reservation[]): Promise<ReserveOutcome[]> {
    const outcomes = await this.repository.reserveBatch(reservations, Date.now());
    const waiting = outcomes.flatMap((outcome, i) => (outcome.kind === 'not_ready' ? [i] : []));
    if (waiting.length > 0) {
      await this.readiness.ensureReady();
      const again = await this.repository.reserveBatch(
        waiting.map((i) => reservations[i]!),
        Date.now(),
      );
      waiting.forEach((index, k) => (outcomes[index] = again[k]!));
    }
    return outcomes;
  }

  private reservationOf(request: BudgetReserveRequest): Reservation {
    return {
      tradeId: request.trade_id,
      maker: this.terms.of(request.maker),
      hedge:
        request.hedge && this.terms.hedgeHolds(request.hedge) ? this.terms.of(request.hedge) : null,
    };
  }

  private answer(
    reservation: Reservation,
    outcome: ReserveOutcome,
    tracing: Tracing,
  ): BudgetReserveResult {
    const { tradeId } = reservation;
    const log = this.logger.child({ trade_id: tradeId, correlation_id: tracing.correlationId });
    switch (outcome.kind) {
      case 'granted':
        log.info(
          {
            rate_budget: outcome.shares.maker.share,
            hedge_rate_budget: outcome.shares.hedge?.share,
          },
          'rate budget reserved',
        );
        return { outcome: 'granted', trade_id: tradeId, ...outcome.shares };
      case 'existing':
        return { outcome: 'granted', trade_id: tradeId, ...outcome.shares };
      case 'refused':
        return this.refusal(reservation, outcome, log);
      case 'conflict':
        return {
          outcome: 'failed',
          code: 'conflict',
          message: `trade ${tradeId} already holds budget on other accounts`,
        };
      case 'not_ready':
        return {
          outcome: 'failed',
          code: 'budget_unavailable',
          message: 'the budget state is being rebuilt; try again',
        };
    }
  }

  private refusal(
    { tradeId, maker, hedge }: Reservation,
    outcome: Extract<ReserveOutcome, { kind: 'refused' }>,
    log: Logger,
  ): BudgetRefused {
    const account = outcome.role === 'maker' ? maker : hedge!;
    const limit = outcome.scope === 'venue' ? account.venueLimit! : account.limit;
    // With one egress the refusal reads as it always did; with several it names the one that refused.
    const egress =
      outcome.egress !== null && this.terms.severalEgresses() ? { egress: outcome.egress } : {};
    log.info(
      {
        role: outcome.role,
        venue: account.venue,
        holders: outcome.holders,
        scope: outcome.scope,
        ...egress,
      },
      'rate budget refused',
    );
    return {
      outcome: 'refused',
      trade_id: tradeId,
      role: outcome.role,
      venue: account.venue,
      wallet: account.wallet,
      limit,
      holders: outcome.holders,
      min_trade_budget: account.min,
      limit_scope: outcome.scope,
      ...(outcome.scope === 'venue' ? { min_pace_per_min: account.venueMin } : {}),
      ...egress,
    };
  }
}
