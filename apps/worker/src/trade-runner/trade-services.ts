import type { VenueRegistry } from '@sts/domain';
import type { FrameCoalescer } from '@sts/venues';
import type { MonotonicClock } from '../clock';
import type { WorkerMetrics } from '../metrics/worker-metrics';
import type { TradeReader, TradeRecord } from '../trades/trade-record';
import type { VenueAnswerTimes } from '../venue-sessions/venue-answer-times';
import type { StepScheduler } from './step-scheduler';
import type { BookHandlers, LegBudgets, TradeLegs } from './trade-legs';

/** What a trade takes from the worker: each part as narrow as the trade uses it. */
export interface TradeServices {
  clock: MonotonicClock;
  metrics: TradeMetrics;
  coalescer: Pick<FrameCoalescer, 'whenSent'>;
  /** How long each venue takes to answer: a hedge's bound for an unanswered IOC. */
  answerTimes: Pick<VenueAnswerTimes, 'expectedMs'>;
  reader: Pick<TradeReader, 'amendableTerms'>;
  /** Where a venue bounds no request, how long a lost one may still land (WORKER_UNBOUNDED_REQUEST_WAIT_MS). */
  unboundedRequestWaitMs: number;
  venues: VenueRegistry;
  scheduler: Pick<StepScheduler, 'schedule' | 'scheduleAfterReads'>;
  /** Opens the trade's two venues (accounts, markets, books): openTradeLegs on a worker. */
  openLegs(record: TradeRecord, books: BookHandlers, budget?: LegBudgets): Promise<TradeLegs>;
}

/** The worker metrics a trade records. */
export type TradeMetrics = Pick<
  WorkerMetrics,
  | 'recordFillToHedgeSent'
  | 'recordHedgeEnded'
  | 'recordRequote'
  | 'recordRequoteHeld'
  | 'recordLateMakerOrderCanceled'
>;
