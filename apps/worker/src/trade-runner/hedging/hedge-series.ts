import Big from 'big.js';
import {
  clientOrderId,
  floorToStep,
  formatDecimal,
  hedgeLimitPrice,
  MAX_HEDGE_ATTEMPT,
  meetsVenueMinimums,
  notFoundMeans,
  UNBOUNDED_REQUEST_SETTLE_MS,
  type GuardFillClass,
  type PricedFill,
} from '@sts/domain';
import { sleep } from '@sts/platform';
import {
  OrderRejectedError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
  isVenueHalted,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueOrder,
} from '@sts/venues';
import { logEntry, type HedgeResult, type LogEntry } from '../../execution-log/log-entries';
import type { HedgeContext } from './hedge-context';
import { hedgeFilledEntry, hedgeOutcomeEntry, hedgeSentEntry, iocFill } from './hedge-entries';

/**
 * Each attempt's lifetime on the venue, as a share of hedge_timeout_ms: an
 * attempt whose answer is lost is known unplaced this soon (plus the client's
 * margin) and retried while the hedge may still fill.
 */
const ATTEMPT_LIFETIME_SHARE = 0.25;
const MIN_ATTEMPT_LIFETIME_MS = 250;

/**
 * An IOC answers in milliseconds; one that has not after this long may be
 * stuck at a hanging venue, and the trade stops adding maker fills meanwhile.
 */
const HEDGE_ANSWER_EXPECTED_MS = 250;

/** Pause before retrying a hedge for its remainder: short, the position is open meanwhile. */
const retryDelayMs = (attempt: number): number => Math.min(25 * 2 ** (attempt - 1), 400);

/**
 * Where a hedge stands. `reserved` is the size counted in flight by the
 * trade's accumulator and not settled yet. An attempt at the venue or being
 * looked up carries its number (an answer for another attempt is ignored)
 * and whether hedge_timeout_ms passed meanwhile (it then ends when the
 * attempt settles).
 */
type SeriesState =
  /** The next attempt may go: nothing is at the venue. */
  | { kind: 'ready'; reserved: Big }
  /** The attempt waits for a token of the hedge account's budget. */
  | { kind: 'awaiting_budget'; reserved: Big; attempt: number }
  /** The IOC is out; `overdue` once it has not answered when it should have. */
  | {
      kind: 'at_venue';
      reserved: Big;
      attempt: number;
      overdue: boolean;
      timedOut: boolean;
      slowTimer: NodeJS.Timeout;
    }
  /** Its answer was lost: the venue is asked for it by client order id. */
  | { kind: 'looking_up'; reserved: Big; attempt: number; timedOut: boolean }
  /** The remainder waits a moment before its attempt. */
  | { kind: 'retry_wait'; reserved: Big; timer: NodeJS.Timeout }
  /** The last attempt is settled and the next not reserved yet (within one turn). */
  | { kind: 'settled' }
  | { kind: 'ended'; result: HedgeResult | 'abandoned' };

type InFlight = Extract<SeriesState, { kind: 'at_venue' | 'looking_up' }>;

/** The hedge's fate is in doubt while an answer is overdue or lost (see Hedger.inDoubt). */
const inDoubt = (state: SeriesState): boolean =>
  state.kind === 'looking_up' || (state.kind === 'at_venue' && state.overdue);

/**
 * One hedge: the size a maker fill (or a recovery) left unhedged, sent as an
 * IOC at H * (1 -/+ max_slippage) and retried for its remainder from a fresh
 * reference until filled or hedge_timeout_ms has passed (decisions 2). Every
 * attempt has its own deterministic client order id (cause + attempt), so an
 * attempt whose answer was lost is looked up, never sent twice. Its states
 * are SeriesState; `finish` is the one way out of them.
 */
export class HedgeSeries {
  readonly done: Promise<void>;
  /** How the guard classed the maker fill that started it (set on the hot path, after the send). */
  guardFillClass: GuardFillClass | null = null;
  private state: SeriesState;
  private resolveDone!: () => void;
  private attempts = 0;
  private filled = new Big(0);
  private readonly fills: PricedFill[] = [];
  private lastOrderId: string | null = null;
  private readonly deadline: NodeJS.Timeout;
  private readonly startedAtMs: number;

  constructor(
    private readonly context: HedgeContext,
    readonly cause: string,
    readonly requested: Big,
    /** The maker fills this hedge covers (their average makes spread_achieved). */
    private readonly makerFills: readonly PricedFill[],
    /** H when the hedge started: slippage is measured against it. */
    private readonly reference: Big,
  ) {
    this.state = { kind: 'ready', reserved: requested };
    this.startedAtMs = context.clock.now();
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.deadline = setTimeout(() => this.onDeadline(), context.venue.timeoutMs);
  }

  get isEnded(): boolean {
    return this.state.kind === 'ended';
  }

  /**
   * Sends the next attempt. Synchronous up to the venue call: returns the
   * hedge_sent entry when the order went out now, null when it waits for
   * budget (it then logs hedge_sent itself when it goes).
   */
  sendAttempt(): LogEntry | null {
    const state = this.state;
    if (state.kind !== 'ready' && state.kind !== 'retry_wait') {
      return null;
    }
    if (!this.context.mayTouchVenue()) {
      this.finish('abandoned');
      return null;
    }
    if (this.attempts >= MAX_HEDGE_ATTEMPT) {
      this.onDeadline();
      return null;
    }
    this.attempts += 1;
    const attempt = this.attempts;
    const request = this.attemptRequest(state.reserved, attempt);
    const sent = hedgeSentEntry(this.context, request, attempt, this.cause);
    const bucket = this.context.bucket;
    if (bucket && !bucket.take()) {
      this.enter({ kind: 'awaiting_budget', reserved: state.reserved, attempt });
      bucket.waitFor().then(
        () => {
          if (this.state.kind === 'awaiting_budget' && this.state.attempt === attempt) {
            this.context.emit([sent]);
            this.place(request, state.reserved, attempt);
          }
        },
        // The bucket closes only when the trade stops running here.
        () => this.finish('abandoned'),
      );
      return null;
    }
    this.place(request, state.reserved, attempt);
    return sent;
  }

  private attemptRequest(size: Big, attempt: number): PlaceOrderRequest {
    const { venue } = this.context;
    const limit = hedgeLimitPrice({
      side: venue.side,
      hedgeReference: this.context.market.hedgeReference() ?? this.reference,
      maxSlippage: this.context.maxSlippage(),
      tickSize: venue.leg.rules.tickSize,
    });
    return {
      symbol: venue.leg.symbol,
      side: venue.side,
      price: formatDecimal(limit),
      size: formatDecimal(size),
      clientOrderId: clientOrderId(this.context.tradeId, {
        kind: 'hedge',
        makerFillId: this.cause,
        attempt,
      }),
      lifetimeMs: Math.max(
        MIN_ATTEMPT_LIFETIME_MS,
        Math.floor(venue.timeoutMs * ATTEMPT_LIFETIME_SHARE),
      ),
    };
  }

  private place(request: PlaceOrderRequest, reserved: Big, attempt: number): void {
    const placing = this.context.venue.client.placeIoc(request);
    // The IOC is out: only now the timer that notices an answer overdue.
    const slowTimer = setTimeout(() => {
      const state = this.inFlight(attempt);
      if (state?.kind === 'at_venue') {
        this.enter({ ...state, overdue: true });
      }
    }, HEDGE_ANSWER_EXPECTED_MS);
    this.enter({ kind: 'at_venue', reserved, attempt, overdue: false, timedOut: false, slowTimer });
    placing.then(
      (ack) => this.onOrder(attempt, ack.order, ack),
      (error: unknown) => this.onError(attempt, request, error),
    );
  }

  /** The state of attempt `attempt` if it is still at the venue or being looked up. */
  private inFlight(attempt: number): InFlight | null {
    const state = this.state;
    return (state.kind === 'at_venue' || state.kind === 'looking_up') && state.attempt === attempt
      ? state
      : null;
  }

  private onOrder(attempt: number, order: VenueOrder, ack?: OrderAck): void {
    const state = this.inFlight(attempt);
    if (!state) {
      return;
    }
    this.lastOrderId = order.orderId;
    const fill = iocFill(order, ack);
    if (fill.size.gt(0)) {
      this.fills.push(fill);
      this.context.emit([hedgeFilledEntry(this.context, order, fill)]);
    }
    this.attemptOver(state, fill.size.gt(state.reserved) ? state.reserved : fill.size);
  }

  private onError(attempt: number, request: PlaceOrderRequest, error: unknown): void {
    const state = this.inFlight(attempt);
    if (!state) {
      return;
    }
    if (error instanceof VenueNetworkError) {
      // The IOC may or may not have reached the venue: ask for it by its id,
      // and take "not found" as "never placed" only once it can no longer arrive.
      const settlesByMs = error.settlesByMs ?? Date.now() + UNBOUNDED_REQUEST_SETTLE_MS;
      this.enter({
        kind: 'looking_up',
        reserved: state.reserved,
        attempt,
        timedOut: state.timedOut,
      });
      void this.lookUp(request, attempt, settlesByMs);
      return;
    }
    if (error instanceof VenueAuthError) {
      this.context.logger.error({ err: error }, 'hedge refused: venue credentials rejected');
      this.attemptOver(state, new Big(0), { fatal: 'rejected' });
      return;
    }
    if (error instanceof RateLimitedError) {
      this.attemptOver(state, new Big(0), { delayMs: error.retryAfterMs });
      return;
    }
    if (isVenueHalted(error)) {
      this.context.onVenueHalted();
    }
    if (error instanceof OrderRejectedError) {
      this.context.logger.warn({ reason: error.reason, attempt }, 'hedge rejected');
    } else {
      this.context.logger.warn({ err: error, attempt }, 'hedge failed');
    }
    this.attemptOver(state, new Big(0));
  }

  /**
   * Settles an IOC whose answer was lost, by its client order id: found, it
   * is what the venue says; not found, it was never placed, but only once
   * `settlesByMs` has passed (epoch ms: the venue refuses the request after
   * it). Until then nothing is concluded from it: no retry, no outcome.
   */
  private async lookUp(
    request: PlaceOrderRequest,
    attempt: number,
    settlesByMs: number,
  ): Promise<void> {
    for (let lookUps = 1; this.inFlight(attempt); lookUps += 1) {
      let waitMs = Math.min(100 * lookUps, 1_000);
      try {
        const order = await this.context.venue.client.order({
          clientOrderId: request.clientOrderId,
          symbol: request.symbol,
        });
        return this.onOrder(attempt, order);
      } catch (error) {
        const state = this.inFlight(attempt);
        if (error instanceof UnknownOrderError && state) {
          const now = Date.now();
          if (notFoundMeans(now, settlesByMs) === 'never_placed') {
            return this.attemptOver(state, new Big(0));
          }
          waitMs = Math.max(1, settlesByMs - now);
        } else if (!(error instanceof UnknownOrderError)) {
          this.context.logger.warn(
            { err: error, attempt: lookUps },
            'hedge outcome unknown; asking the venue again',
          );
        }
        if (!this.context.mayTouchVenue()) {
          return this.finish('abandoned');
        }
      }
      await sleep(waitMs);
    }
  }

  /**
   * One attempt is over: `filled` of its reserved size filled. Either the
   * hedge is done, or the remainder is reserved and retried, or it ends
   * (timeout, a remainder below the venue minimum, or a fatal refusal).
   */
  private attemptOver(
    attempt: InFlight,
    filled: Big,
    options: { delayMs?: number; fatal?: HedgeResult } = {},
  ): void {
    this.context.settle(attempt.reserved, filled);
    this.filled = this.filled.plus(filled);
    this.enter({ kind: 'settled' });
    const remainder = this.requested.minus(this.filled);
    if (remainder.lte(0)) {
      return this.finish('filled');
    }
    if (options.fatal) {
      return this.finish(options.fatal);
    }
    if (attempt.timedOut) {
      return this.finish('timeout');
    }
    if (this.context.clock.now() - this.startedAtMs >= this.context.venue.timeoutMs) {
      return this.onDeadline();
    }
    const next = floorToStep(remainder, this.context.venue.leg.rules.lotSize);
    const reference = this.context.market.hedgeReference() ?? this.reference;
    if (next.lte(0) || !meetsVenueMinimums(next, this.context.venue.leg.rules, reference)) {
      // Too small to send alone: it waits with later maker fills (residual_unhedged if none come).
      return this.finish('partial');
    }
    this.context.reserve(next);
    const timer = setTimeout(
      () => {
        const sent = this.sendAttempt();
        if (sent) {
          this.context.emit([sent]);
        }
      },
      Math.max(options.delayMs ?? 0, retryDelayMs(this.attempts)),
    );
    this.enter({ kind: 'retry_wait', reserved: next, timer });
  }

  /**
   * hedge_timeout_ms passed: no further attempt is sent. An attempt still at
   * the venue (or being looked up) is settled first; the hedge then ends, and
   * fails the trade only for size the venue confirms unhedged (finish()).
   */
  private onDeadline(): void {
    const state = this.state;
    if (state.kind === 'ended' || ('timedOut' in state && state.timedOut)) {
      return;
    }
    this.context.emit([
      logEntry('hedge_timeout', {
        exchange: this.context.venue.leg.venue,
        order_id: this.lastOrderId,
        // Up: the timer fires by the event loop's millisecond clock, which may trail this one.
        waited_ms: Math.ceil(this.context.clock.now() - this.startedAtMs),
        unhedged_size: formatDecimal(this.requested.minus(this.filled)),
      }),
    ]);
    if (state.kind === 'at_venue' || state.kind === 'looking_up') {
      this.enter({ ...state, timedOut: true });
      return;
    }
    this.finish('timeout');
  }

  /** Moves to `next`: the timers of the state left are cleared, the trade told if doubt changed. */
  private enter(next: SeriesState): void {
    const previous = this.state;
    if (previous.kind === 'at_venue' && next.kind !== 'at_venue') {
      clearTimeout(previous.slowTimer);
    }
    if (previous.kind === 'retry_wait') {
      clearTimeout(previous.timer);
    }
    this.state = next;
    if (inDoubt(previous) !== inDoubt(next)) {
      this.context.doubt(inDoubt(next) ? 1 : -1);
    }
  }

  /**
   * The one way a hedge ends. Size still reserved and not at the venue is
   * released. `abandoned`: the lease is gone and the new owner reconciles; an
   * attempt at the venue is left to it, and nothing is reported. Otherwise
   * the outcome is logged, and a timeout or a refusal fails the trade: only
   * now is the hedge's fill settled with the venue, so what it left is
   * confirmed unhedged.
   */
  private finish(result: HedgeResult | 'abandoned'): void {
    const last = this.state;
    if (last.kind === 'ended') {
      return;
    }
    this.enter({ kind: 'ended', result });
    clearTimeout(this.deadline);
    if (last.kind === 'ready' || last.kind === 'awaiting_budget' || last.kind === 'retry_wait') {
      this.context.settle(last.reserved, new Big(0));
    }
    if (result !== 'abandoned') {
      this.report(result);
    }
    this.resolveDone();
  }

  private report(result: HedgeResult): void {
    const venue = this.context.venue;
    if (result === 'timeout' || result === 'rejected') {
      this.context.onFailure(
        result === 'timeout'
          ? `hedge timed out after ${venue.timeoutMs} ms on ${venue.leg.venue}`
          : `hedge refused by ${venue.leg.venue}`,
      );
    }
    this.context.onEnded?.(result, this.context.clock.now() - this.startedAtMs);
    this.context.emit([
      hedgeOutcomeEntry(this.context, {
        result,
        cause: this.cause,
        requested: this.requested,
        filled: this.filled,
        attempts: this.attempts,
        fills: this.fills,
        makerFills: this.makerFills,
        reference: this.reference,
        guardFillClass: this.guardFillClass,
      }),
    ]);
  }
}
