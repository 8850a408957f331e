import type { Logger } from '@sts/platform';
import type { LeaseRepository } from '../lease/lease.repository';
import type { RunnerServices } from '../trade-runner/runner-services';
import { TradeRunner } from '../trade-runner/trade-runner';

export type OfferResult = 'acquired' | 'running' | 'full' | 'unavailable';

/** Per-trade hooks that live as long as the trade runs here (its control subscription). */
export interface RunnerHooks {
  attach(runner: TradeRunner): () => void;
}

/**
 * The trades this worker runs, up to its capacity. A trade is offered (by a
 * start command or a scan); the fleet takes it only if its lease can be
 * acquired, which a compare-and-set in Postgres decides among all workers.
 */
export class TradeFleet {
  private readonly runners = new Map<string, TradeRunner>();
  private readonly acquiring = new Set<string>();

  constructor(
    private readonly services: RunnerServices,
    private readonly leases: LeaseRepository,
    private readonly hooks: RunnerHooks,
    private readonly maxTrades: number,
    private readonly logger: Logger,
  ) {}

  /** Live trades: an ended one waiting for the marks of its last fills holds no slot. */
  get size(): number {
    let live = 0;
    for (const runner of this.runners.values()) {
      live += runner.ended ? 0 : 1;
    }
    return live;
  }

  get room(): number {
    return Math.max(0, this.maxTrades - this.size - this.acquiring.size);
  }

  list(): TradeRunner[] {
    return [...this.runners.values()];
  }

  async offer(tradeId: string, correlationId: string): Promise<OfferResult> {
    if (this.runners.has(tradeId) || this.acquiring.has(tradeId)) {
      return 'running';
    }
    if (this.room === 0) {
      return 'full';
    }
    this.acquiring.add(tradeId);
    try {
      const startedAt = this.services.clock.now();
      const acquisition =
        (await this.leases.claimPending(tradeId)) ?? (await this.leases.takeOver(tradeId));
      if (!acquisition) {
        return 'unavailable';
      }
      const runner = new TradeRunner(this.services, acquisition, correlationId, startedAt);
      this.runners.set(tradeId, runner);
      const detach = this.hooks.attach(runner);
      void runner.closed.then(() => {
        detach();
        if (this.runners.get(tradeId) === runner) {
          this.runners.delete(tradeId);
        }
      });
      runner.start();
      return 'acquired';
    } finally {
      this.acquiring.delete(tradeId);
    }
  }

  onMaintenanceChanged(): void {
    for (const runner of this.runners.values()) {
      runner.onMaintenanceChanged();
    }
  }

  /** Graceful shutdown: every trade goes quiet and is released (or left to expire). */
  async handOverAll(graceMs: number): Promise<TradeRunner[]> {
    const runners = this.list();
    this.logger.info({ trades: runners.length }, 'handing trades over');
    await Promise.all(runners.map((runner) => runner.handOver(graceMs)));
    return runners;
  }
}
