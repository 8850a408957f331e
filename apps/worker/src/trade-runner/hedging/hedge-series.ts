import Big from 'big.js';
import {
  averageFillPrice,
  clientOrderId,
  floorToStep,
  formatDecimal,
  hedgeLimitPrice,
  MAX_HEDGE_ATTEMPT,
  meetsVenueMinimums,
  notFoundMeans,
  UNBOUNDED_REQUEST_SETTLE_MS,
  slippageBps,
  spreadAchieved,
  type GuardFillClass,
  type PricedFill,
} from '@sts/domain';
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
 * One hedge: the size a maker fill (or a recovery) left unhedged, sent as an
 * IOC at H * (1 -/+ max_slippage) and retried for its remainder from a fresh
 * reference until filled or hedge_timeout_ms has passed (decisions 2). Every
 * attempt has its own deterministic client order id (cause + attempt), so an
 * attempt whose answer was lost is looked up, never sent twice.
 */
export class HedgeSeries {
  readonly done: Promise<void>;
  guardFillClass: GuardFillClass | null = null;
  private resolveDone!: () => void;
  private attempts = 0;
  private filled = new Big(0);
  private readonly fills: PricedFill[] = [];
  /** The size reserved (counted in flight by the accumulator) for the current attempt. */
  private reserved: Big;
  /** True from a reservation until the attempt is settled with the accumulator. */
  private reservedUnsettled = true;
  /** True while an order request or its look-up is at the venue. */
  private atVenue = false;
  private lastOrderId: string | null = null;
  private timedOut = false;
  private inDoubt = false;
  private ended = false;
  private retryTimer?: NodeJS.Timeout;
  private readonly timeoutTimer: NodeJS.Timeout;
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
    this.reserved = requested;
    this.startedAtMs = context.clock.now();
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.timeoutTimer = setTimeout(() => this.onTimeout(), context.venue.timeoutMs);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * Sends the next attempt. Synchronous up to the venue call: returns the
   * hedge_sent entry when the order went out now, null when it waits for
   * budget (it then logs hedge_sent itself when it goes).
   */
  sendAttempt(): LogEntry | null {
    if (this.ended) {
      return null;
    }
    if (!this.context.mayTouchVenue()) {
      this.abandon();
      return null;
    }
    if (this.attempts >= MAX_HEDGE_ATTEMPT) {
      this.onTimeout();
      return null;
    }
    this.attempts += 1;
    const { venue } = this.context;
    const reference = this.context.market.hedgeReference() ?? this.reference;
    const limit = hedgeLimitPrice({
      side: venue.side,
      hedgeReference: reference,
      maxSlippage: this.context.maxSlippage(),
      tickSize: venue.leg.rules.tickSize,
    });
    const request: PlaceOrderRequest = {
      symbol: venue.leg.symbol,
      side: venue.side,
      price: formatDecimal(limit),
      size: formatDecimal(this.reserved),
      clientOrderId: clientOrderId(this.context.tradeId, {
        kind: 'hedge',
        makerFillId: this.cause,
        attempt: this.attempts,
      }),
      lifetimeMs: Math.max(
        MIN_ATTEMPT_LIFETIME_MS,
        Math.floor(venue.timeoutMs * ATTEMPT_LIFETIME_SHARE),
      ),
    };
    const sent = logEntry('hedge_sent', {
      exchange: venue.leg.venue,
      side: venue.side,
      size: request.size,
      price: request.price,
      client_order_id: request.clientOrderId,
      attempt: this.attempts,
      cause: this.cause,
    });
    const bucket = this.context.bucket;
    if (bucket && !bucket.take()) {
      bucket.waitFor().then(
        () => {
          if (this.ended) {
            return;
          }
          this.context.emit([sent]);
          this.place(request);
        },
        // The bucket closes only when the trade stops running here.
        () => this.abandon(),
      );
      return null;
    }
    this.place(request);
    return sent;
  }

  private place(request: PlaceOrderRequest): void {
    const size = this.reserved;
    this.atVenue = true;
    const placing = this.context.venue.client.placeIoc(request);
    // The IOC is out: only now the timer that notices an answer overdue.
    const slow = setTimeout(() => this.doubt(true), HEDGE_ANSWER_EXPECTED_MS);
    placing.then(
      (ack) => {
        clearTimeout(slow);
        this.doubt(false);
        this.onOrder(size, ack.order, ack);
      },
      (error: unknown) => {
        clearTimeout(slow);
        this.onError(size, request, error);
      },
    );
  }

  /**
   * The attempt's fate is in doubt (no answer when one was due, or the answer
   * was lost) until the venue tells; see Hedger.inDoubt.
   */
  private doubt(inDoubt: boolean): void {
    if (inDoubt === this.inDoubt) {
      return;
    }
    this.inDoubt = inDoubt;
    this.context.doubt(inDoubt ? 1 : -1);
  }

  private onOrder(size: Big, order: VenueOrder, ack?: OrderAck): void {
    this.lastOrderId = order.orderId;
    const filledNow = new Big(order.filledSize);
    if (filledNow.gt(0)) {
      const price = order.averagePrice
        ? new Big(order.averagePrice)
        : (averageFillPrice(
            (ack?.fills ?? []).map((f) => ({ price: new Big(f.price), size: new Big(f.size) })),
          ) ?? new Big(order.price));
      this.fills.push({ price, size: filledNow });
      this.context.emit([
        logEntry('hedge_filled', {
          exchange: this.context.venue.leg.venue,
          side: this.context.venue.side,
          price: formatDecimal(price),
          size: formatDecimal(filledNow),
          order_id: order.orderId,
          timestamp_ms: order.updatedAtMs,
          client_order_id: order.clientOrderId,
        }),
      ]);
    }
    this.resolveAttempt(0, filledNow.gt(size) ? size : filledNow, size);
  }

  private onError(size: Big, request: PlaceOrderRequest, error: unknown): void {
    if (!(error instanceof VenueNetworkError)) {
      this.doubt(false);
    }
    if (error instanceof VenueNetworkError) {
      // The IOC may or may not have reached the venue: ask for it by its id,
      // and take "not found" as "never placed" only once it can no longer arrive.
      void this.lookUp(
        size,
        request,
        error.settlesByMs ?? Date.now() + UNBOUNDED_REQUEST_SETTLE_MS,
      );
      return;
    }
    if (error instanceof VenueAuthError) {
      this.context.logger.error({ err: error }, 'hedge refused: venue credentials rejected');
      this.resolveAttempt(0, new Big(0), size, 'rejected');
      return;
    }
    if (error instanceof RateLimitedError) {
      this.resolveAttempt(error.retryAfterMs, new Big(0), size);
      return;
    }
    if (isVenueHalted(error)) {
      this.context.onVenueHalted();
    }
    if (error instanceof OrderRejectedError) {
      this.context.logger.warn({ reason: error.reason, attempt: this.attempts }, 'hedge rejected');
    } else {
      this.context.logger.warn({ err: error, attempt: this.attempts }, 'hedge failed');
    }
    this.resolveAttempt(0, new Big(0), size);
  }

  /**
   * Settles an IOC whose answer was lost, by its client order id: found, it
   * is what the venue says; not found, it was never placed, but only once
   * `settlesByMs` has passed (epoch ms: the venue refuses the request after
   * it). Until then nothing is concluded from it: no retry, no outcome.
   */
  private async lookUp(size: Big, request: PlaceOrderRequest, settlesByMs: number): Promise<void> {
    this.doubt(true);
    try {
      await this.settleLostAttempt(size, request, settlesByMs);
    } finally {
      this.doubt(false);
    }
  }

  private async settleLostAttempt(
    size: Big,
    request: PlaceOrderRequest,
    settlesByMs: number,
  ): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let waitMs = Math.min(100 * attempt, 1_000);
      try {
        const order = await this.context.venue.client.order({
          clientOrderId: request.clientOrderId,
          symbol: request.symbol,
        });
        this.onOrder(size, order);
        return;
      } catch (error) {
        if (error instanceof UnknownOrderError) {
          const now = Date.now();
          if (notFoundMeans(now, settlesByMs) === 'never_placed') {
            this.resolveAttempt(0, new Big(0), size);
            return;
          }
          waitMs = Math.max(1, settlesByMs - now);
        } else {
          this.context.logger.warn(
            { err: error, attempt },
            'hedge outcome unknown; asking the venue again',
          );
        }
        if (!this.context.mayTouchVenue()) {
          this.abandon();
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /**
   * One attempt is over: `filled` of its `size` filled. Either the hedge is
   * done, or the remainder is reserved and retried, or it ends (timeout, a
   * remainder below the venue minimum, or a fatal refusal).
   */
  private resolveAttempt(
    delayMs: number,
    filled: Big,
    size: Big = this.reserved,
    fatal?: HedgeResult,
  ): void {
    if (this.ended) {
      return;
    }
    this.atVenue = false;
    this.reservedUnsettled = false;
    this.context.settle(size, filled);
    this.filled = this.filled.plus(filled);
    const remainder = this.requested.minus(this.filled);
    if (remainder.lte(0)) {
      return this.end('filled');
    }
    if (fatal) {
      return this.end(fatal);
    }
    if (this.timedOut) {
      return this.end('timeout');
    }
    if (this.context.clock.now() - this.startedAtMs >= this.context.venue.timeoutMs) {
      return this.onTimeout();
    }
    const next = floorToStep(remainder, this.context.venue.leg.rules.lotSize);
    const reference = this.context.market.hedgeReference() ?? this.reference;
    if (next.lte(0) || !meetsVenueMinimums(next, this.context.venue.leg.rules, reference)) {
      // Too small to send alone: it waits with later maker fills (residual_unhedged if none come).
      return this.end('partial');
    }
    this.reserved = next;
    this.context.reserve(next);
    this.reservedUnsettled = true;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        const sent = this.sendAttempt();
        if (sent) {
          this.context.emit([sent]);
        }
      },
      Math.max(delayMs, retryDelayMs(this.attempts)),
    );
  }

  /**
   * hedge_timeout_ms passed: no further attempt is sent. An attempt still at
   * the venue (or being looked up) is settled first; the hedge then ends, and
   * fails the trade only for size the venue confirms unhedged (end()).
   */
  private onTimeout(): void {
    if (this.ended || this.timedOut) {
      return;
    }
    this.timedOut = true;
    const unhedged = this.requested.minus(this.filled);
    this.context.emit([
      logEntry('hedge_timeout', {
        exchange: this.context.venue.leg.venue,
        order_id: this.lastOrderId,
        // Up: the timer fires by the event loop's millisecond clock, which may trail this one.
        waited_ms: Math.ceil(this.context.clock.now() - this.startedAtMs),
        unhedged_size: formatDecimal(unhedged),
      }),
    ]);
    if (!this.atVenue) {
      this.end('timeout');
    }
  }

  /** The lease is gone: the new owner reconciles; touch nothing more. */
  private abandon(): void {
    if (this.ended) {
      return;
    }
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
    }
    if (this.reservedUnsettled && !this.atVenue) {
      this.context.settle(this.reserved, new Big(0));
    }
    this.ended = true;
    clearTimeout(this.timeoutTimer);
    this.resolveDone();
  }

  private end(result: HedgeResult): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    // Only now is the hedge's fill settled with the venue: what it left is confirmed unhedged.
    if (result === 'timeout' || result === 'rejected') {
      const venue = this.context.venue;
      this.context.onFailure(
        result === 'timeout'
          ? `hedge timed out after ${venue.timeoutMs} ms on ${venue.leg.venue}`
          : `hedge refused by ${venue.leg.venue}`,
      );
    }
    clearTimeout(this.timeoutTimer);
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
    }
    this.context.onEnded?.(result, this.context.clock.now() - this.startedAtMs);
    if (this.reservedUnsettled) {
      this.context.settle(this.reserved, new Big(0));
      this.reservedUnsettled = false;
    }
    const average = averageFillPrice(this.fills);
    const makerPrice = averageFillPrice(this.makerFills);
    const { venue } = this.context;
    this.context.emit([
      logEntry('hedge_outcome', {
        result,
        exchange: venue.leg.venue,
        side: venue.side,
        requested_size: formatDecimal(this.requested),
        filled_size: formatDecimal(this.filled),
        avg_price: average ? formatDecimal(average) : null,
        attempts: this.attempts,
        slippage_bps: average
          ? formatDecimal(slippageBps(venue.side, this.reference, average))
          : null,
        spread_achieved:
          average && makerPrice
            ? formatDecimal(
                spreadAchieved({
                  makerLeg: this.context.makerLeg,
                  makerPrice,
                  hedgePrice: average,
                  spreadType: this.context.spreadType(),
                  coarserTickSize: this.context.coarserTickSize,
                }),
              )
            : null,
        guard_fill_class: this.guardFillClass,
        cause: this.cause,
      }),
    ]);
    this.resolveDone();
  }
}
