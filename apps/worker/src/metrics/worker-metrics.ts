import type { Registry } from 'prom-client';
import { VENUE_IDS, type RequoteUrgency } from '@sts/domain';
import { createServiceRegistry } from '@sts/platform';
import type { LogEntry } from '@sts/contracts';
import type { SentVenueRequest } from '@sts/venues';
import type { VenueRequestCount } from '../venue-sessions/counted-venue-client';
import type { VenueAnswerTimes } from '../venue-sessions/venue-answer-times';
import { type DeadManReading, deadManFailures, registerDeadManGauges } from './dead-man-series';
import { LatencyRecorder } from './latency-recorder';
import {
  hedgeSeries,
  type HedgeSeries,
  registerHedgeDoubtGauge,
  registerHeldTradeGauges,
  registerVenueTotals,
  requoteSeries,
  type RequoteSeries,
  tradeHandlingSeries,
  type TradeHandlingSeries,
  type VenueCounts,
  type WorkerMetricsSource,
  venueRequestWeight,
} from './worker-series';

export type { TradeExposure, WorkerMetricsSource } from './worker-series';

export type LeaseAcquisition = 'fresh' | 'handover' | 'takeover';

/**
 * How a re-quote got its turn: `in_slice`, run within the slice of the
 * burst that woke it (never ranked); else the urgency it waited with for a
 * later slice (the scheduler drains those most urgent first).
 */
export type RequoteTurn = 'in_slice' | RequoteUrgency;

export const REQUOTE_TURNS: readonly RequoteTurn[] = [
  'in_slice',
  'at_risk',
  'off_touch',
  'routine',
];

/**
 * The worker's figures: the in-memory latency rings the benches read, and
 * the Prometheus series served on the worker's `/metrics`. Every observation
 * on the hedge path is a counter increment or a histogram observation (no
 * I/O, no await); gauges of what the worker holds are computed when scraped.
 */
export class WorkerMetrics {
  readonly registry: Registry;
  /** From a maker fill reaching the trade to its hedge IOC handed to the socket. */
  readonly fillToHedge = new LatencyRecorder();
  /**
   * From the arrival of a book update that moved H or the maker touch to the
   * re-quote request handed to the socket, for re-quotes the budget let out at once.
   */
  readonly moveToRequote = new LatencyRecorder();
  /**
   * The same, per how the re-quote got its turn (`RequoteTurn`): rings the
   * bench reads, not a labelled series, whose label hashing each re-quote
   * would pay on the quote path.
   */
  readonly moveToRequoteBy: Readonly<Record<RequoteTurn, LatencyRecorder>> = {
    in_slice: new LatencyRecorder(),
    at_risk: new LatencyRecorder(),
    off_touch: new LatencyRecorder(),
    routine: new LatencyRecorder(),
  };
  /** Re-quotes that first waited for the trade's request budget (not counted above). */
  requotesHeldByBudget = 0;

  private source: WorkerMetricsSource = { trades: () => [], maxTrades: 0, draining: () => false };
  private answerTimes: Pick<VenueAnswerTimes, 'bounds'> = { bounds: () => [] };
  /** Every (hedge venue, market) seen, so a gauge goes back to 0 rather than vanishing. */
  private readonly exposureKeys = new Set<string>();

  private readonly hedge: HedgeSeries;
  private readonly requote: RequoteSeries;
  private readonly handling: TradeHandlingSeries;
  private readonly deadManFailures: ReturnType<typeof deadManFailures>;
  private readonly requestTokens: ReturnType<typeof venueRequestWeight>;
  private deadMen: () => DeadManReading[] = () => [];
  /** Venue requests and 429s per (venue, operation): plain numbers on the quote path, series when scraped. */
  private readonly venueCounts = new Map<string, VenueCounts>();

  constructor() {
    this.registry = createServiceRegistry('worker');
    const registers = [this.registry];
    this.hedge = hedgeSeries(registers);
    this.requote = requoteSeries(registers);
    registerVenueTotals(registers, this.venueCounts);
    this.handling = tradeHandlingSeries(registers);
    registerHeldTradeGauges(registers, () => this.source, this.exposureKeys);
    registerHedgeDoubtGauge(registers, () => this.answerTimes.bounds());
    registerDeadManGauges(registers, () => this.deadMen());
    this.deadManFailures = deadManFailures(registers);
    this.requestTokens = venueRequestWeight(registers);
    // Every venue's failure count exists from the start at 0: a series born
    // at 1 is no increase() to Prometheus, so a fresh worker's first failed
    // hedge would not raise StsHedgeFailure.
    for (const exchange of VENUE_IDS) {
      this.hedge.hedgeFailures.inc({ exchange }, 0);
    }
  }

  /** Connects the dead-man gauges to the worker's account sessions. */
  watchDeadMen(readings: () => DeadManReading[]): void {
    this.deadMen = readings;
  }

  /** An arming of an account's dead-man switch refused by the venue or failed on the way. */
  recordDeadManFailure(venue: string, kind: 'refused' | 'failed'): void {
    this.deadManFailures.inc({ venue, kind });
  }

  /** Connects the scrape-time gauges to the worker's fleet. */
  attach(source: WorkerMetricsSource): void {
    this.source = source;
  }

  /** Connects the hedge-doubt gauge to the venues' answer times. */
  watchAnswerTimes(answerTimes: Pick<VenueAnswerTimes, 'bounds'>): void {
    this.answerTimes = answerTimes;
  }

  /** After the hedge is out: one ring write and one histogram observation. */
  recordFillToHedgeSent(exchange: string, ms: number): void {
    this.fillToHedge.record(ms);
    this.hedge.fillToHedgeSent.observe({ exchange }, ms / 1000);
  }

  recordRequote(ms: number, turn: RequoteTurn): void {
    this.moveToRequote.record(ms);
    this.moveToRequoteBy[turn].record(ms);
    this.requote.requoteLatency.observe(ms / 1000);
  }

  recordRequoteHeld(): void {
    this.requotesHeldByBudget += 1;
    this.requote.requotesHeld.inc();
  }

  /** A hedge series ended: `ms` since the maker fill that started it. */
  recordHedgeEnded(exchange: string, result: string, ms: number): void {
    this.hedge.hedgeOutcomes.inc({ exchange, result });
    if (result === 'filled') {
      this.hedge.fillToHedgeFilled.observe({ exchange }, ms / 1000);
    }
    if (result === 'timeout' || result === 'rejected') {
      this.hedge.hedgeFailures.inc({ exchange });
    }
  }

  /** A dead worker's maker order landed after a takeover and was cancelled (recovery/late-maker-orders.ts). */
  recordLateMakerOrderCanceled(exchange: string): void {
    this.handling.lateMakerOrders.inc({ exchange });
  }

  /** A trade stopped quoting because its lease went unproven (trade-runner/lease-trust.ts). */
  recordLeaseFenced(): void {
    this.handling.leaseFences.inc();
  }

  /** Counts what a trade wrote to its execution log (the log is the record of every event). */
  recordEntries(entries: LogEntry[], market: string): void {
    for (const entry of entries) {
      switch (entry.eventType) {
        case 'maker_fill':
          this.hedge.makerFills.inc({ exchange: entry.data.exchange, market });
          break;
        case 'hedge_sent':
          this.hedge.hedgesSent.inc({ exchange: entry.data.exchange, market });
          if (entry.data.attempt > 1) {
            this.hedge.hedgeRetries.inc({ exchange: entry.data.exchange, market });
          }
          break;
        case 'hedge_filled':
          this.hedge.hedgesFilled.inc({ exchange: entry.data.exchange, market });
          break;
        case 'hedge_timeout':
          this.hedge.hedgeTimeouts.inc({ exchange: entry.data.exchange, market });
          break;
        case 'recovery_completed':
          this.handling.recoveries.inc();
          break;
        case 'fast_move_guard':
          this.handling.guardTriggers.inc({ action: entry.data.action });
          break;
        case 'unwind_outcome':
          this.handling.residuals.inc({ exchange: entry.data.exchange, result: entry.data.result });
          break;
        case 'hedge_outcome':
        case 'chunk_started':
        case 'chunk_completed':
        case 'unwind_sent':
        case 'markout':
        case 'quoting':
          break;
      }
    }
  }

  /** A venue client's counts of one operation: a number increment per request (the quote path calls it often). */
  venueRequestCount(exchange: string, operation: string): VenueRequestCount {
    const key = `${exchange}\u0000${operation}`;
    let counts = this.venueCounts.get(key);
    if (!counts) {
      counts = { exchange, operation, requests: 0, rateLimited: 0 };
      this.venueCounts.set(key, counts);
    }
    const held = counts;
    return {
      request: () => {
        held.requests += 1;
      },
      rateLimited: () => {
        held.rateLimited += 1;
      },
    };
  }

  /** One HTTP request a live client sent: its weight in budget tokens, by kind and payer. */
  venueRequestSent(exchange: string, request: SentVenueRequest): void {
    const metered = request.metered ? 'true' : 'false';
    this.requestTokens.inc({ exchange, kind: request.kind, metered }, request.tokens);
  }

  recordLeaseAcquired(kind: LeaseAcquisition): void {
    this.handling.leaseAcquisitions.inc({ kind });
  }

  /** A start command offered beside its maker account (AccountAffinity): taken there, or run here. */
  recordStartOffer(outcome: 'taken_there' | 'run_here'): void {
    this.handling.startOffers.inc({ outcome });
  }
}
