import { formatDecimal } from '@sts/domain';
import { sleep, TimeoutError, withTimeout } from '@sts/platform';
import { logEntry } from '@sts/contracts';
import { TradeEventRepository } from '@sts/persistence';
import { readTradeLog } from '../execution-log/trade-log';
import type { Acquisition } from '../lease/lease.repository';
import { Takeover, type TakeoverServices } from '../recovery/takeover';
import { preflightChecks, type PreflightFailure } from './preflight';
import type { RunnerServices } from './runner-services';
import { LegUnavailableError } from './trade-legs';
import { untilVenuesAnswer } from './until-venues-answer';
import type { TradeState } from './trade-state';

/** Longest the pre-flight may take before the trade is rejected. */
const PREFLIGHT_TIMEOUT_MS = 20_000;
/**
 * How long pre-flight waits for a venue that is down for a moment before
 * rejecting the trade: a venue back after 15 s is seen by the next reconnect,
 * up to the clients' longest backoff (5 s) later.
 */
const PREFLIGHT_VENUE_WAIT_MS = 22_000;

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
    private readonly services: Pick<RunnerServices, 'clock'> & TakeoverServices,
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
    // Every start is a replay: a fresh trade's log is empty, or holds what an
    // earlier owner wrote before it died validating (nothing that trades).
    trade.replay(await readTradeLog(this.services.db, trade.tradeId));
    trade.listen();
    // An amendment stored while validating that no control message brought (nobody answered
    // the gateway in time) is in the chunk it starts, not only in the quotes after it.
    await trade.refreshTerms();
    const started = {
      target_size: formatDecimal(trade.terms.targetSize),
      size_type: trade.terms.sizeType,
    };
    const spreadAtStart = trade.open?.legs.market.spreadAtTouch(trade.terms.spread.spreadType);
    await trade.changeStatus('active', {
      entries: [
        logEntry('chunk_started', {
          ...started,
          spread_at_start: spreadAtStart ? formatDecimal(spreadAtStart) : null,
        }),
      ],
      eventData: started,
    });
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

  /** The previous worker died: taken over leg by leg against the venues (recovery/takeover.ts). */
  private async recover(): Promise<void> {
    await new Takeover(this.trade, this.services, this.acquisition).run();
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
    trade.replay(await readTradeLog(db, trade.tradeId));
    const previousWorkerId = await new TradeEventRepository(db.manager).lastWriterOf(trade.tradeId);
    open.hedger.restore(trade.ledger.makerFills, trade.ledger.hedged);
    // From here to the entry nothing awaits: a mark due at once (its moment
    // just passed) or an event the stream brings is logged after it, so the
    // hand-over's first entry is recovery_completed.
    trade.listen();
    open.markouts.resume(trade.ledger);
    const completed = logEntry('recovery_completed', {
      previous_worker_id: previousWorkerId,
      open_orders_canceled: 0,
      fills_reconciled: 0,
      rehedged_size: '0',
      cause: 'handover',
    });
    await trade.apply([completed]);
    trade.log.info(
      { status: trade.status, filled_size: formatDecimal(trade.filledSize), ...completed.data },
      'trade resumed after hand-over',
    );
    await trade.refreshTerms();
  }

  /** An executing trade cannot be rejected: what it needs of the venues is retried until it works. */
  private retrying<T>(what: string, work: () => Promise<T>): Promise<T> {
    return untilVenuesAnswer(this.trade, what, work);
  }
}
