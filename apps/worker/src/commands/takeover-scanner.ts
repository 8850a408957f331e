import { randomUUID } from 'node:crypto';
import { PeriodicTask, type Logger } from '@sts/platform';
import type { TradeFleet } from '../fleet/trade-fleet';
import type { LeaseRepository } from '../lease/lease.repository';

/** A pending trade is left to its start command for this long before a scan takes it. */
const PENDING_GRACE_MS = 3_000;

/**
 * Looks in Postgres for trades nobody holds: a dead worker's (lease expired),
 * a stopped worker's (lease released) and pending trades whose start command
 * was lost. Any worker with room offers itself; the lease decides who wins.
 */
export class TakeoverScanner {
  private scanning = false;
  private readonly task: PeriodicTask;

  constructor(
    private readonly leases: LeaseRepository,
    private readonly fleet: TradeFleet,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.scan(), { intervalMs, ref: true });
  }

  start(): void {
    this.task.start();
  }

  stop(): void {
    void this.task.stop();
  }

  async scan(): Promise<number> {
    const room = this.fleet.room;
    if (this.scanning || room === 0) {
      return 0;
    }
    this.scanning = true;
    let acquired = 0;
    try {
      const unheld = await this.leases.findUnheld(room, PENDING_GRACE_MS);
      for (const tradeId of unheld) {
        const result = await this.fleet.offer(tradeId, `takeover-${randomUUID()}`);
        if (result === 'acquired') {
          acquired += 1;
        }
        if (result === 'full') {
          break;
        }
      }
      if (acquired > 0) {
        this.logger.info({ acquired }, 'took over unheld trades');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'takeover scan failed');
    } finally {
      this.scanning = false;
    }
    return acquired;
  }
}
