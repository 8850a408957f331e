import type { TradeControl } from '@sts/contracts';
import { formatDecimal, UNBOUNDED_REQUEST_SETTLE_MS } from '@sts/domain';
import { logEntry } from '../execution-log/log-entries';
import { readLoggedFills } from '../execution-log/logged-fills';
import { LeaseLostError, TradeJournal } from '../execution-log/trade-journal';
import type { Acquisition, Lease, RenewedLease } from '../lease/lease.repository';
import type { TradeExposure } from '../metrics/worker-metrics';
import { reconcileTrade } from '../recovery/reconcile-trade';
import { ExecutionLoop } from './execution-loop';
import { FastMoveWatch } from './fast-move-watch';
import { preflightChecks, type PreflightFailure } from './preflight';
import type { Halt, RunnerServices } from './runner-services';
import { TradeBudget } from './trade-budget';
import { LegUnavailableError } from './trade-legs';
import { TradeState } from './trade-state';

/** Longest the pre-flight may take before the trade is rejected. */
const PREFLIGHT_TIMEOUT_MS = 20_000;
/** How long pre-flight waits for a venue that is down for a moment before rejecting the trade. */
const PREFLIGHT_VENUE_WAIT_MS = 15_000;

class TimeoutError extends Error {}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const sameHalt = (a: Halt | null, b: Halt | null): boolean =>
  a === b || (a !== null && b !== null && a.reason === b.reason && a.exchange === b.exchange);

/**
 * One trade on this worker, from the moment its lease is acquired until it
 * ends here (terminal status, hand-over, or a lost lease). How it starts
 * depends on how it came: a fresh trade is validated, a trade whose worker
 * died is recovered against the venues, a trade handed over quietly resumes
 * from its log.
 */
export class TradeRunner {
  readonly tradeId: string;
  readonly lease: Lease;
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  private readonly trade: TradeState;
  private readonly loop: ExecutionLoop;

  constructor(
    private readonly services: RunnerServices,
    private readonly acquisition: Acquisition,
    correlationId: string,
    acquiredAtMs: number,
  ) {
    this.trade = new TradeState(services, acquisition, correlationId, acquiredAtMs);
    this.tradeId = this.trade.tradeId;
    this.lease = acquisition.lease;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.loop = new ExecutionLoop(this.trade, () => void this.close(true));
  }

  start(): void {
    this.services.metrics.recordLeaseAcquired(this.acquisition.kind);
    void this.run();
  }

  /** What the worker's metrics read at scrape time (no trade id leaves here). */
  exposure(): TradeExposure | null {
    const trade = this.trade;
    if (!trade.record) {
      return null;
    }
    return {
      status: trade.status,
      market: trade.record.market,
      hedgeExchange: trade.record.hedgeExchange,
      unhedgedSize: trade.hedger ? trade.hedger.outstanding.toNumber() : 0,
    };
  }

  private async run(): Promise<void> {
    const trade = this.trade;
    try {
      const record = await this.services.reader.load(this.tradeId);
      trade.record = record;
      trade.terms = record.terms;
      trade.status = record.status;
      trade.cancelRequested = record.cancelRequested;
      trade.journal = new TradeJournal(
        this.services.db,
        {
          tradeId: this.tradeId,
          userId: record.userId,
          workerId: this.services.workerId,
          epoch: this.lease.epoch,
          natsPrefix: this.services.natsPrefix,
          correlationId: trade.correlationId,
        },
        {
          onLeaseLost: () => this.onLeaseLost(),
          onOutboxWritten: () => this.services.kickOutbox(),
          logger: trade.log,
        },
      );
      trade.budget = new TradeBudget(
        this.tradeId,
        record.rateBudget,
        record.hedgeRateBudget,
        this.services.budget,
        trade.log,
      );
      trade.budget.follow();
      trade.guard = new FastMoveWatch(record.guard, record.makerLeg);
      trade.halt = this.services.haltFor([record.makerExchange, record.hedgeExchange]);
      trade.log.info(
        { acquisition: this.acquisition.kind, status: record.status, epoch: this.lease.epoch },
        'trade acquired',
      );
      switch (trade.status) {
        case 'validating':
          await this.validate();
          break;
        case 'recovering':
          await this.recover();
          break;
        case 'active':
        case 'paused':
          if (this.acquisition.kind === 'takeover') {
            await trade.journal.changeStatus({ from: trade.status, to: 'recovering' });
            trade.status = 'recovering';
            await this.recover();
          } else {
            await this.resumeFromLog();
          }
          break;
        case 'pending':
        case 'completed':
        case 'canceled':
        case 'rejected':
        case 'failed':
          // Nothing to run (a pending trade is claimed into validating, never taken as pending).
          void this.close(true);
          return;
      }
      if (trade.phase !== 'starting') {
        return;
      }
      trade.phase = 'running';
      this.loop.wake();
    } catch (error) {
      if (!(error instanceof LeaseLostError) && trade.phase !== 'closed') {
        trade.log.error(
          { err: error },
          'trade could not start here; its lease will expire for another attempt',
        );
      }
      void this.close(false);
    }
  }

  /** validating -> active, or -> rejected with the failed check as failure_reason. */
  private async validate(): Promise<void> {
    const trade = this.trade;
    const waitUntil = this.services.clock.now() + PREFLIGHT_VENUE_WAIT_MS;
    let rejection: string | null = null;
    // A venue that is down for a moment (socket dropped, book not back yet) is waited for, a while.
    for (let attempt = 1; ; attempt += 1) {
      const failure = await this.preflightOnce();
      rejection = failure?.reason ?? null;
      if (
        !failure?.transient ||
        trade.cancelRequested ||
        !trade.mayTouchVenue() ||
        this.services.clock.now() >= waitUntil
      ) {
        break;
      }
      trade.log.info(
        { reason: failure.reason, attempt },
        'pre-flight: a venue is not ready; waiting',
      );
      await sleep(Math.min(250 * attempt, 2_000));
    }
    if (trade.cancelRequested) {
      return;
    } // the loop cancels it (validating -> canceled)
    if (rejection !== null) {
      await trade.journal.changeStatus({
        from: 'validating',
        to: 'rejected',
        failureReason: rejection,
        eventData: { failure_reason: rejection },
      });
      trade.status = 'rejected';
      trade.log.warn({ failure_reason: rejection }, 'trade rejected at pre-flight');
      await trade.budget.release('rejected');
      await this.close(true);
      return;
    }
    trade.listen();
    const started = {
      target_size: formatDecimal(trade.terms.targetSize),
      size_type: trade.terms.sizeType,
    };
    await trade.journal.changeStatus({
      from: 'validating',
      to: 'active',
      entries: [logEntry('chunk_started', started)],
      eventData: started,
    });
    trade.status = 'active';
    trade.chunkStarted = true;
    trade.log.info(started, 'trade active');
    await trade.refreshTerms();
  }

  /** One pass of the pre-flight checks (opening the legs first if they are not open). */
  private async preflightOnce(): Promise<PreflightFailure | null> {
    const trade = this.trade;
    try {
      return await withTimeout(PREFLIGHT_TIMEOUT_MS, async () => {
        if (!trade.legs) {
          await trade.openLegs();
        }
        return preflightChecks({ ...trade.record, terms: trade.terms }, trade.legs!, trade.budget);
      });
    } catch (error) {
      if (error instanceof LegUnavailableError) {
        return { reason: error.reason, transient: error.transient };
      }
      if (error instanceof TimeoutError) {
        return {
          reason: `pre-flight checks did not finish within ${PREFLIGHT_TIMEOUT_MS} ms`,
          transient: false,
        };
      }
      throw error;
    }
  }

  /**
   * The previous worker died: reconcile with the venues (its orders off the
   * books, every fill read back and logged), hedge what is unhedged, log
   * recovery_completed, then back to active (or paused).
   */
  private async recover(): Promise<void> {
    const trade = this.trade;
    await this.openLegsUntilOpen();
    await this.outwaitDeadWorkersRequests();
    const reconciliation = await this.retrying('reconcile with the venues', () =>
      reconcileTrade({
        db: this.services.db,
        record: trade.record,
        legs: trade.legs!,
        makerBucket: trade.budget.maker,
        hedgeBucket: trade.budget.hedge,
        fills: trade.fills,
        sizeType: trade.terms.sizeType,
      }),
    );
    const hedger = trade.hedger!;
    hedger.restore(reconciliation.makerFills, reconciliation.hedged);
    trade.chunkStarted = (await readLoggedFills(this.services.db, this.tradeId)).chunkStarted;
    this.countFillsTowardCompletion();
    trade.listen();
    if (reconciliation.entries.length > 0) {
      await trade.journal.append(reconciliation.entries, formatDecimal(reconciliation.filledSize));
    }
    const hedgedBefore = hedger.hedged;
    const started = hedger.hedgeUnhedged(`recovery-${this.lease.epoch}`);
    if (started?.sent) {
      trade.record$([started.sent]);
    }
    await hedger.idle();
    const completed = logEntry('recovery_completed', {
      previous_worker_id: this.acquisition.previousOwner,
      open_orders_canceled: reconciliation.openOrdersCanceled,
      fills_reconciled: reconciliation.fillsReconciled,
      rehedged_size: formatDecimal(hedger.hedged.minus(hedgedBefore)),
    });
    if (trade.failureReason !== null) {
      // The re-hedge failed: the loop fails the trade from recovering.
      await trade.journal.append([completed]);
      return;
    }
    const to = trade.halt ? 'paused' : 'active';
    await trade.journal.changeStatus({
      from: 'recovering',
      to,
      entries: [completed],
      eventData:
        to === 'paused' ? { reason: trade.halt!.reason, exchange: trade.halt!.exchange } : {},
    });
    trade.status = to;
    trade.log.info({ status: to, ...completed.data }, 'trade recovered');
    await trade.refreshTerms();
  }

  /** Handed over quietly: the log is complete, so it is the state. */
  private async resumeFromLog(): Promise<void> {
    const trade = this.trade;
    await this.openLegsUntilOpen();
    const logged = await readLoggedFills(this.services.db, this.tradeId);
    for (const fill of logged.makerFills) {
      trade.fills.record(fill.fillId, fill.price, fill.size);
    }
    trade.hedger!.restore(logged.makerFills, logged.hedged);
    trade.chunkStarted = logged.chunkStarted;
    this.countFillsTowardCompletion();
    trade.listen();
    trade.log.info(
      { status: trade.status, filled_size: formatDecimal(trade.filledSize) },
      'trade resumed after hand-over',
    );
    await trade.refreshTerms();
  }

  /**
   * A trade that reached its target just before changing hands completes on
   * the next cycle; one whose target was amended down to its filled size does
   * not (interface: it stays in its status).
   */
  private countFillsTowardCompletion(): void {
    this.trade.fills.fillsSinceAmendment =
      this.trade.terms.amendmentVersion === 0 ? this.trade.fills.count : 0;
  }

  /** An executing trade cannot be rejected: its legs are retried until they open. */
  /**
   * A dead worker's last order requests may still be on their way to the
   * venues (held by a slow network or a hanging venue): until they can no
   * longer take effect, the venue's open orders and fills are not the whole
   * truth, and an order the reconciliation did not see could rest beside the
   * one this worker places. It sent nothing after its lease expired, and each
   * request lives at most the venue's order request lifetime.
   */
  private async outwaitDeadWorkersRequests(): Promise<void> {
    const expiredMsAgo = this.acquisition.previousExpiredMsAgo;
    const legs = this.trade.legs;
    if (expiredMsAgo === null || !legs) {
      return;
    }
    const lifetimeMs = Math.max(
      legs.makerClient.orderRequestLifetimeMs ?? UNBOUNDED_REQUEST_SETTLE_MS,
      legs.hedgeClient.orderRequestLifetimeMs ?? UNBOUNDED_REQUEST_SETTLE_MS,
    );
    const waitMs = lifetimeMs - expiredMsAgo;
    if (waitMs <= 0) {
      return;
    }
    this.trade.log.info(
      { wait_ms: Math.round(waitMs) },
      "waiting until the dead worker's order requests can no longer land",
    );
    await sleep(waitMs);
  }

  private async openLegsUntilOpen(): Promise<void> {
    await this.retrying('open the venues', () => this.trade.openLegs());
  }

  private async retrying<T>(what: string, work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      if (!this.trade.mayTouchVenue()) {
        throw new LeaseLostError(this.tradeId);
      }
      try {
        return await work();
      } catch (error) {
        if (error instanceof LeaseLostError) {
          throw error;
        }
        this.trade.log.warn({ err: error, attempt }, `could not ${what}; retrying`);
        await sleep(Math.min(250 * attempt, 3_000));
      }
    }
  }

  /** True once the lease was given up cleanly (hand-over or end). */
  released = false;

  get userId(): string {
    return this.trade.record?.userId ?? '';
  }

  /** Until when (monotonic ms) this worker trusts its lease. */
  get leaseValidUntil(): number {
    return this.trade.leaseValidUntil;
  }

  onLeaseRenewed(validUntilMs: number, renewed: RenewedLease): void {
    const trade = this.trade;
    trade.leaseValidUntil = validUntilMs;
    if (!trade.terms || trade.phase === 'closed') {
      return;
    }
    if (renewed.amendmentVersion > trade.terms.amendmentVersion) {
      trade
        .applyAmendment(renewed.amendmentVersion)
        .catch((error: unknown) => trade.log.warn({ err: error }, 'could not read the amendment'));
    }
    if (renewed.cancelRequested && !trade.cancelRequested) {
      trade.cancelRequested = true;
      trade.wake();
    }
  }

  onLeaseLost(): void {
    if (this.trade.phase === 'closed') {
      return;
    }
    this.trade.log.warn('lease lost: another worker owns this trade now; touching nothing more');
    void this.close(false);
  }

  async onControl(control: TradeControl): Promise<boolean> {
    if (!this.trade.terms) {
      if (control.kind === 'cancel') {
        this.trade.cancelRequested = true;
      }
      return control.kind === 'cancel';
    }
    return this.trade.onControl(control);
  }

  onMaintenanceChanged(): void {
    const trade = this.trade;
    if (!trade.record || trade.phase === 'closed') {
      return;
    }
    const halt = this.services.haltFor([trade.record.makerExchange, trade.record.hedgeExchange]);
    if (sameHalt(halt, trade.halt)) {
      return;
    }
    trade.halt = halt;
    trade.wake();
  }

  /**
   * Graceful shutdown: stop quoting, take the maker order down, let hedges
   * finish, and give the lease up so another worker resumes without a
   * recovery. A trade that does not go quiet in time keeps its lease, which
   * then expires: the next worker recovers it.
   */
  async handOver(graceMs: number): Promise<void> {
    const trade = this.trade;
    if (trade.phase === 'closed') {
      return;
    }
    if (trade.phase === 'finishing') {
      await withTimeout(graceMs, () => this.closed).catch(() => this.close(false));
      return;
    }
    if (trade.phase === 'starting') {
      await this.close(false);
      return;
    }
    trade.handingOver = true;
    const quiet = await withTimeout(graceMs, async () => {
      await this.loop.settled();
      await this.loop.quiesce();
      return true;
    }).catch(() => false);
    await this.close(quiet && trade.failureReason === null && trade.phase === 'running');
  }

  private async close(releaseLease: boolean): Promise<void> {
    const trade = this.trade;
    if (trade.phase === 'closed') {
      return;
    }
    trade.phase = 'closed';
    this.loop.stop();
    trade.abort.abort(new Error('trade closed on this worker'));
    trade.legs?.close();
    trade.budget?.close('trade closed on this worker');
    trade.journal?.close();
    this.resolveClosed();
    if (releaseLease) {
      this.released = await this.services.leases.release(this.lease).catch((error: unknown) => {
        trade.log.warn({ err: error }, 'could not release the lease; it will expire');
        return false;
      });
    }
  }
}
