import { PeriodicTask, type Logger } from '@sts/platform';
import type { MonotonicClock } from '../clock';
import { trustFrom } from '../trade-runner/lease-trust';
import type { TradeRunner } from '../trade-runner/trade-runner';
import type { LeaseRepository } from './lease.repository';

/**
 * Renews every lease this worker holds, in one statement per period. What
 * comes back is still ours; anything else was taken (the runner stops
 * touching venues at once). The renewal also carries amendment versions and
 * cancel flags, so a missed control message costs one period at most.
 * Between renewals a watch tells every trade whose lease has gone unproven
 * (a renewal failed or held up) to take its maker side down: a worker cut
 * off from Postgres stops acting as the owner before the lease can pass.
 */
export class LeaseKeeper {
  private renewing = false;
  private readonly task: PeriodicTask;
  private readonly doubtWatch: PeriodicTask;

  constructor(
    private readonly leases: LeaseRepository,
    private readonly runners: () => TradeRunner[],
    private readonly clock: MonotonicClock,
    private readonly ttlMs: number,
    private readonly renewMs: number,
    private readonly logger: Logger,
  ) {
    // A renewal's failure is handled in renew(); the task keeps the process alive as the worker's pulse.
    this.task = new PeriodicTask(() => this.renew(), { intervalMs: renewMs, ref: true });
    this.doubtWatch = new PeriodicTask(async () => this.watchDoubt(), {
      intervalMs: Math.max(20, Math.floor(ttlMs / 20)),
    });
  }

  start(): void {
    this.task.start();
    this.doubtWatch.start();
  }

  stop(): void {
    void this.task.stop();
    void this.doubtWatch.stop();
  }

  /** Tells each trade whose lease is in doubt (it does the rest once per doubt). */
  watchDoubt(): void {
    const now = this.clock.now();
    for (const runner of this.runners()) {
      if (runner.leaseQuoteUntil <= now) {
        runner.onLeaseInDoubt();
      }
    }
  }

  async renew(): Promise<void> {
    if (this.renewing) {
      return;
    }
    this.renewing = true;
    const held = this.runners();
    const startedAt = this.clock.now();
    try {
      const renewed = await this.leases.renew(held.map((runner) => runner.lease));
      const trust = trustFrom(startedAt, this.ttlMs);
      const byId = new Map(renewed.map((row) => [row.tradeId, row]));
      for (const runner of held) {
        const row = byId.get(runner.tradeId);
        if (row) {
          runner.onLeaseRenewed(trust, row);
        } else {
          runner.onLeaseLost();
        }
      }
    } catch (error) {
      this.logger.warn({ err: error, trades: held.length }, 'lease renewal failed');
      // A lease past its deadline may already be another worker's: stop that trade here.
      const now = this.clock.now();
      for (const runner of held) {
        if (runner.leaseValidUntil <= now) {
          runner.onLeaseLost();
        }
      }
    } finally {
      this.renewing = false;
    }
  }
}
