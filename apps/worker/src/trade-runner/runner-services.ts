import type { DataSource } from 'typeorm';
import type { BudgetClient } from '@sts/budget-client';
import type { VenueId, VenueRegistry } from '@sts/domain';
import type { CredentialStore } from '@sts/persistence';
import type { Logger } from '@sts/platform';
import type { FrameCoalescer } from '@sts/venues';
import type { MonotonicClock } from '../clock';
import type { OutboxWrite } from '../execution-log/trade-journal';
import type { LeaseRepository } from '../lease/lease.repository';
import type { WorkerMetrics } from '../metrics/worker-metrics';
import type { TradeReader } from '../trades/trade-record';
import type { StepScheduler } from './step-scheduler';
import type { AccountSessions } from '../venue-sessions/account-sessions';
import type { MarketData } from '../venue-sessions/market-data';
import type { VenueAnswerTimes } from '../venue-sessions/venue-answer-times';

/**
 * Why a trade's venues are off limits: an operator's maintenance flag, the
 * kill switch, or a venue that refuses orders because it is halted.
 */
export interface Halt {
  reason: 'maintenance' | 'kill_switch' | 'venue_halted';
  /** The venue, `_system`, or `_kill_switch`. */
  exchange: string;
}

/** What the worker shares with every trade it runs. */
export interface RunnerServices {
  workerId: string;
  natsPrefix: string;
  venues: VenueRegistry;
  leaseTtlMs: number;
  /** How long a dead worker's request may still land where the venue bounds none (a takeover waits it out). */
  unboundedRequestWaitMs: number;
  /** Where a maker venue bounds no request, how long after a dead lease its late maker orders are watched for. */
  lateOrderWatchMs: number;
  db: DataSource;
  reader: TradeReader;
  leases: LeaseRepository;
  credentials: CredentialStore;
  accounts: AccountSessions;
  marketData: MarketData;
  budget: BudgetClient | null;
  clock: MonotonicClock;
  /** Runs trades' steps in slices after pending I/O, so fills are never queued behind re-quotes. */
  scheduler: StepScheduler;
  /** Holds a burst's order frames briefly so one account's re-quotes share a write. */
  coalescer: FrameCoalescer;
  /** How long each venue takes to answer: a hedge's bound for an unanswered IOC. */
  answerTimes: Pick<VenueAnswerTimes, 'expectedMs'>;
  metrics: WorkerMetrics;
  logger: Logger;
  /** The halt in force for a trade on these venues, or null. */
  haltFor(venues: readonly VenueId[]): Halt | null;
  /**
   * Publish committed outbox rows: a lifecycle event now, fill messages
   * within the fill-push window (one relay run for a burst of fills, off the
   * hedge path).
   */
  kickOutbox(written: OutboxWrite): void;
}
