import { PeriodicTask, type Logger } from '@sts/platform';
import type { MonotonicClock } from '../clock';
import { LEASE_TRUST } from '../trade-runner/lease-trust';
import type { TradeRunner } from '../trade-runner/trade-runner';
import type { LeaseRepository } from './lease.repository';

/**
 * Renews every lease this worker holds, in one statement per period. What
 * comes back is still ours; anything else was taken (the runner stops
 * touching venues at once). The renewal also carries amendment versions and
 * cancel flags, so a missed control message costs one period at most.
 */
export class LeaseKeeper {
  private renewing = false;
  private readonly task: PeriodicTask;

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
  }

  start(): void {
    this.task.start();
  }

  stop(): void {
    void this.task.stop();
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
      const validUntil = startedAt + this.ttlMs * LEASE_TRUST;
      const byId = new Map(renewed.map((row) => [row.tradeId, row]));
      for (const runner of held) {
        const row = byId.get(runner.tradeId);
        if (row) {
          runner.onLeaseRenewed(validUntil, row);
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
