import { formatDecimal } from '@sts/domain';
import { sleep, TimeoutError, withTimeout } from '@sts/platform';
import { logEntry } from '../execution-log/log-entries';
import { readLastLogWriter } from '../execution-log/last-log-writer';
import { readLoggedFills } from '../execution-log/logged-fills';
import { LeaseLostError } from '../execution-log/trade-journal';
import type { Acquisition } from '../lease/lease.repository';
import { reconcileTrade } from '../recovery/reconcile-trade';
import { preflightChecks, type PreflightFailure } from './preflight';
import type { RunnerServices } from './runner-services';
import { LegUnavailableError } from './trade-legs';
import type { TradeState } from './trade-state';

/** Longest the pre-flight may take before the trade is rejected. */
const PREFLIGHT_TIMEOUT_MS = 20_000;
/** How long pre-flight waits for a venue that is down for a moment before rejecting the trade. */
const PREFLIGHT_VENUE_WAIT_MS = 15_000;

/** What a start came to: the trade runs, or it ended (rejected) or has nothing to run here. */
export type StartOutcome = 'running' | 'ended';

/**
 * How a trade starts on this worker, by how it came: a fresh trade is
 * validated, a trade whose worker died is recovered against the venues, a
 * trade handed over quietly resumes from its log.
 */
export class TradeStart {
  constructor(
    private readonly trade: TradeState,
    private readonly services: Pick<RunnerServices, 'db' | 'clock' | 'unboundedRequestWaitMs'>,
    private readonly acquisition: Acquisition,
  ) {}

  async run(): Promise<StartOutcome> {
    const trade = this.trade;
    switch (trade.status) {
      case 'validating':
        return this.validate();
      case 'recovering':
        await this.recover();
        return 'running';
      case 'active':
      case 'paused':
        if (this.acquisition.kind === 'takeover') {
          await trade.changeStatus('recovering');
          await this.recover();
        } else {
          await this.resumeFromLog();
        }
        return 'running';
      case 'pending':
      case 'completed':
      case 'canceled':
      case 'rejected':
      case 'failed':
        // Nothing to run (a pending trade is claimed into validating, never taken as pending).
        return 'ended';
    }
  }

  /** validating -> active, or -> rejected with the failed check as failure_reason. */
  private async validate(): Promise<StartOutcome> {
    const trade = this.trade;
    const rejection = await this.preflightWaitingForVenues();
    if (trade.ending !== null) {
      return 'running'; // the loop ends it (validating -> canceled)
    }
    if (rejection !== null) {
      await trade.changeStatus('rejected', {
        failureReason: rejection,
        eventData: { failure_reason: rejection },
      });
      trade.log.warn({ failure_reason: rejection }, 'trade rejected at pre-flight');
      await trade.budget.release('rejected');
      return 'ended';
    }
    trade.listen();
    // An amendment stored while validating that no control message brought (nobody answered
    // the gateway in time) is in the chunk it starts, not only in the quotes after it.
    await trade.refreshTerms();
    const started = {
      target_size: formatDecimal(trade.terms.targetSize),
      size_type: trade.terms.sizeType,
    };
    await trade.changeStatus('active', {
      entries: [logEntry('chunk_started', started)],
      eventData: started,
    });
    trade.noteChunkStarted();
    trade.log.info(started, 'trade active');
    // And one stored between that read and the status change (PATCH saw it validating).
    await trade.refreshTerms();
    return 'running';
  }

  /** The pre-flight's rejection, or null; a venue down for a moment is waited for, a while. */
  private async preflightWaitingForVenues(): Promise<string | null> {
    const trade = this.trade;
    const { clock } = this.services;
    const waitUntil = clock.now() + PREFLIGHT_VENUE_WAIT_MS;
    for (let attempt = 1; ; attempt += 1) {
      const failure = await this.preflightOnce();
      const done = !failure?.transient || trade.ending !== null || clock.now() >= waitUntil;
      // A lapse of the lease's trust is waited out; a lost lease ends the wait.
      if (done || !(await trade.untilTrusted())) {
        return failure?.reason ?? null;
      }
      trade.log.info(
        { reason: failure.reason, attempt },
        'pre-flight: a venue is not ready; waiting',
      );
      await sleep(Math.min(250 * attempt, 2_000));
    }
  }

  /** One pass of the pre-flight checks (opening the legs first if they are not open). */
  private async preflightOnce(): Promise<PreflightFailure | null> {
    const trade = this.trade;
    try {
      return await withTimeout(async () => {
        const { legs } = await trade.openLegs();
        return preflightChecks(trade.record, trade.terms, legs, trade.budget);
      }, PREFLIGHT_TIMEOUT_MS);
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
    const open = await this.retrying('open the venues', () => trade.openLegs());
    await this.outwaitDeadWorkersRequests();
    const reconciliation = await this.retrying('reconcile with the venues', () =>
      reconcileTrade({
        db: this.services.db,
        record: trade.record,
        legs: open.legs,
        makerBucket: trade.budget.maker,
        hedgeBucket: trade.budget.hedge,
        fills: trade.fills,
        sizeType: trade.terms.sizeType,
      }),
    );
    const hedger = open.hedger;
    hedger.restore(reconciliation.makerFills, reconciliation.hedged);
    trade.noteChunkStarted((await readLoggedFills(this.services.db, trade.tradeId)).chunkStarted);
    this.countFillsTowardCompletion();
    trade.listen();
    if (reconciliation.entries.length > 0) {
      await trade.journal.append(reconciliation.entries, formatDecimal(reconciliation.filledSize));
    }
    const hedgedBefore = hedger.hedged;
    const started = hedger.hedgeUnhedged(`recovery-${trade.epoch}`);
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
    if (trade.ending?.kind === 'failed') {
      // The re-hedge failed: the loop fails the trade from recovering.
      await trade.journal.append([completed]);
      return;
    }
    const halt = trade.halt;
    await trade.changeStatus(halt ? 'paused' : 'active', {
      entries: [completed],
      eventData: halt ? { reason: halt.reason, exchange: halt.exchange } : {},
    });
    trade.log.info({ status: trade.status, ...completed.data }, 'trade recovered');
    await trade.refreshTerms();
  }

  /**
   * Handed over quietly: the log is complete, so it is the state. The
   * previous worker took its orders down and saw its hedges through before it
   * let go, so recovery_completed (cause `handover`) reports nothing canceled,
   * reconciled or re-hedged here.
   */
  private async resumeFromLog(): Promise<void> {
    const trade = this.trade;
    const { db } = this.services;
    const open = await this.retrying('open the venues', () => trade.openLegs());
    const logged = await readLoggedFills(db, trade.tradeId);
    for (const fill of logged.makerFills) {
      trade.fills.record(fill.fillId, fill.price, fill.size);
    }
    open.hedger.restore(logged.makerFills, logged.hedged);
    trade.noteChunkStarted(logged.chunkStarted);
    this.countFillsTowardCompletion();
    trade.listen();
    const completed = logEntry('recovery_completed', {
      previous_worker_id: await readLastLogWriter(db, trade.tradeId),
      open_orders_canceled: 0,
      fills_reconciled: 0,
      rehedged_size: '0',
      cause: 'handover',
    });
    await trade.journal.append([completed]);
    trade.log.info(
      { status: trade.status, filled_size: formatDecimal(trade.filledSize), ...completed.data },
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
    const { fills, terms } = this.trade;
    fills.countFromStart(terms.amendmentVersion === 0);
  }

  /**
   * A dead worker's last order requests may still be on their way to the
   * venues (held by a slow network or a hanging venue): until they can no
   * longer take effect, the venue's open orders and fills are not the whole
   * truth, and an order the reconciliation did not see could rest beside the
   * one this worker places. It sent nothing after its lease expired, and each
   * request lives at most the venue's order request lifetime (where the venue
   * bounds none, `WORKER_UNBOUNDED_REQUEST_WAIT_MS`).
   */
  private async outwaitDeadWorkersRequests(): Promise<void> {
    const expiredMsAgo = this.acquisition.previousExpiredMsAgo;
    const legs = this.trade.open?.legs;
    if (expiredMsAgo === null || !legs) {
      return;
    }
    const unbounded = this.services.unboundedRequestWaitMs;
    const lifetimeMs = Math.max(
      legs.makerClient.orderRequestLifetimeMs ?? unbounded,
      legs.hedgeClient.orderRequestLifetimeMs ?? unbounded,
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

  /** An executing trade cannot be rejected: what it needs of the venues is retried until it works. */
  private async retrying<T>(what: string, work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      if (!this.trade.mayTouchVenue() && !(await this.trade.untilTrusted())) {
        throw new LeaseLostError(this.trade.tradeId);
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
}
