import Big from 'big.js';
import {
  emptyHedgeAccumulator,
  hedgeToSend,
  recordHedgeResult,
  recordHedgeSent,
  recordMakerFill,
  residualUnhedged,
  signOf,
  splitFillsAt,
  unhedgedSize,
  type HedgeAccumulator,
  type PricedFill,
} from '@sts/domain';
import type { LogEntry } from '@sts/contracts';
import type { HedgeContext } from './hedge-context';
import { hedgeOutcomeEntry, hedgeTimeoutEntry } from './hedge-entries';
import { HedgeSeries } from './hedge-series';

export type HedgerDependencies = Omit<HedgeContext, 'settle' | 'reserve' | 'uncover' | 'doubt'>;

/**
 * A hedge that could not start for want of H (no hedge book yet since the
 * trade was taken over): sent with the first H, or failed as a timeout once
 * the hedge timeout passes without one (decisions 2).
 */
interface DeferredHedge {
  cause: string;
  sinceMs: number;
  deadline: NodeJS.Timeout;
}

export interface HedgeStarted {
  series: HedgeSeries;
  /** The hedge_sent entry of the first attempt, when it went out at once. */
  sent: LogEntry | null;
}

/**
 * A trade's hedging: the accumulator (maker filled, hedged, in flight) and
 * the hedges running. `onMakerFill` is the hot path: it sends the hedge
 * synchronously, before the caller logs or writes anything.
 */
export class Hedger {
  private accumulator: HedgeAccumulator = emptyHedgeAccumulator();
  /** The accumulator `waitingSize` was worked out from: every quote cycle asks, fills and hedges change it. */
  private waitingOf: HedgeAccumulator | null = null;
  private waitingSize: Big = new Big(0);
  private readonly running = new Set<HedgeSeries>();
  /** Maker fills not yet covered by a hedge, oldest first, for spread_achieved. */
  private readonly uncovered: PricedFill[] = [];
  private readonly context: HedgeContext;
  private idleWaiters: Array<() => void> = [];
  private attemptsInDoubt = 0;
  /** A hedge that could not start for want of H: sent with the next H (hedgeDeferred). */
  private deferredHedge: DeferredHedge | null = null;

  constructor(dependencies: HedgerDependencies) {
    this.context = {
      ...dependencies,
      settle: (size, filled) => {
        this.accumulator = recordHedgeResult(this.accumulator, { requested: size, filled });
      },
      reserve: (size) => {
        this.accumulator = recordHedgeSent(this.accumulator, size);
      },
      uncover: (fills) => {
        this.uncovered.unshift(...fills);
      },
      doubt: (change) => {
        const before = this.attemptsInDoubt > 0;
        this.attemptsInDoubt += change;
        if (this.attemptsInDoubt > 0 !== before) {
          dependencies.onDoubtChanged();
        }
      },
    };
  }

  /**
   * A hedge attempt's answer was lost and the venue has not yet told what
   * became of it: the hedge venue may be hanging. The trade takes its maker
   * order down meanwhile, so no fill is added that it may not be able to hedge.
   */
  get inDoubt(): boolean {
    return this.attemptsInDoubt > 0;
  }

  /** A trade taken over: what the venues say was filled on each leg. */
  restore(makerFills: readonly PricedFill[], hedged: Big): void {
    let accumulator = emptyHedgeAccumulator();
    for (const fill of makerFills) {
      accumulator = recordMakerFill(accumulator, fill.size);
    }
    this.accumulator = { ...accumulator, hedged };
    // The oldest fills are taken as the hedged ones; what stays is uncovered.
    let covered = hedged;
    this.uncovered.length = 0;
    for (const fill of makerFills) {
      if (covered.gte(fill.size)) {
        covered = covered.minus(fill.size);
        continue;
      }
      this.uncovered.push({ price: fill.price, size: fill.size.minus(covered) });
      covered = new Big(0);
    }
  }

  /** The hot path: counts the maker fill and hedges what is unhedged, now. */
  onMakerFill(fillId: string, price: Big, size: Big): HedgeStarted | null {
    this.accumulator = recordMakerFill(this.accumulator, size);
    this.uncovered.push({ price, size });
    return this.hedgeUnhedged(fillId);
  }

  /**
   * Hedges everything unhedged that the hedge venue accepts (its lot and
   * minimums). `cause` names the maker fill or recovery it is for; with the
   * attempt number it makes the hedge's client order id. While the lease is
   * not trusted the hedge starts all the same and its IOC waits for the
   * trust (HedgeSeries), its timeout running from now; without H (no hedge
   * book yet) it waits for the first one (hedgeDeferred).
   */
  hedgeUnhedged(cause: string): HedgeStarted | null {
    const reference = this.context.market.hedgeReference();
    if (reference === null) {
      if (signOf(unhedgedSize(this.accumulator)) > 0) {
        this.defer(cause);
      }
      return null;
    }
    // With H known nothing waits for it: a size too small to send waits for later maker fills.
    this.endDeferral();
    const size = hedgeToSend(this.accumulator, this.context.venue.leg.rules, reference);
    if (size === null) {
      this.wakeIdleWaiters();
      return null;
    }
    this.accumulator = recordHedgeSent(this.accumulator, size);
    const series = new HedgeSeries(this.context, cause, size, this.coverFills(size), reference);
    this.running.add(series);
    void series.done.then(() => {
      this.running.delete(series);
      this.wakeIdleWaiters();
    });
    return { series, sent: series.sendAttempt() };
  }

  /** A hedge is waiting for H (hedgeUnhedged): the hedge book's next move should send it. */
  get deferred(): boolean {
    return this.deferredHedge !== null;
  }

  /** Starts the hedge that waited for H, now that there is one (null: none waits, or still none). */
  hedgeDeferred(): HedgeStarted | null {
    const deferred = this.deferredHedge;
    return deferred === null ? null : this.hedgeUnhedged(deferred.cause);
  }

  /** The first hedge that finds no H waits for one, for the hedge timeout at most. */
  private defer(cause: string): void {
    if (this.deferredHedge) {
      return;
    }
    this.deferredHedge = {
      cause,
      sinceMs: this.context.clock.now(),
      deadline: setTimeout(() => this.deferralTimedOut(), this.context.venue.timeoutMs),
    };
  }

  private endDeferral(): void {
    if (this.deferredHedge) {
      clearTimeout(this.deferredHedge.deadline);
      this.deferredHedge = null;
    }
  }

  /**
   * No H came within the hedge timeout: nothing was sent, and the trade fails
   * for the size it holds unhedged, as a hedge that timed out would.
   */
  private deferralTimedOut(): void {
    const deferred = this.deferredHedge;
    if (!deferred) {
      return;
    }
    this.deferredHedge = null;
    const waitedMs = this.context.clock.now() - deferred.sinceMs;
    const unhedged = unhedgedSize(this.accumulator);
    this.context.emit([
      hedgeTimeoutEntry(this.context, {
        lastOrderId: null,
        waitedMs,
        unhedged,
        cause: deferred.cause,
      }),
      hedgeOutcomeEntry(this.context, {
        result: 'timeout',
        cause: deferred.cause,
        requested: unhedged,
        filled: new Big(0),
        attempts: 0,
        fills: [],
        makerFills: [],
        reference: null,
        guardFillClass: null,
      }),
    ]);
    this.wakeIdleWaiters();
  }

  /** Resolves when no hedge is running or waiting for H. */
  idle(): Promise<void> {
    if (this.isIdle) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private get isIdle(): boolean {
    return this.running.size === 0 && this.deferredHedge === null;
  }

  private wakeIdleWaiters(): void {
    if (this.isIdle) {
      for (const resolve of this.idleWaiters.splice(0)) {
        resolve();
      }
    }
  }

  get hedging(): boolean {
    return this.running.size > 0;
  }

  get makerFilled(): Big {
    return this.accumulator.makerFilled;
  }

  get hedged(): Big {
    return this.accumulator.hedged;
  }

  /** Maker fills neither hedged nor being hedged: below the hedge venue's lot or minimums, waiting. */
  get waiting(): Big {
    if (this.waitingOf !== this.accumulator) {
      this.waitingOf = this.accumulator;
      this.waitingSize = unhedgedSize(this.accumulator);
    }
    return this.waitingSize;
  }

  /** Maker fills not confirmed hedged (includes what is in flight). */
  get outstanding(): Big {
    return this.accumulator.makerFilled.minus(this.accumulator.hedged);
  }

  /** residual_unhedged once nothing is in flight. */
  residual(): Big {
    return residualUnhedged(this.accumulator);
  }

  /** The oldest uncovered maker fills making up `size` (averaged when the hedge ends, off the hot path). */
  private coverFills(size: Big): PricedFill[] {
    const { within, beyond } = splitFillsAt(this.uncovered, size);
    this.uncovered.splice(0, this.uncovered.length, ...beyond);
    return within;
  }
}
