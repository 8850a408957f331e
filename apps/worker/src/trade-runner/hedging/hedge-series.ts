import Big from 'big.js';
import { MAX_HEDGE_ATTEMPT, splitFillsAt, type GuardFillClass, type PricedFill } from '@sts/domain';
import { type OrderAck, type PlaceOrderRequest, type VenueOrder } from '@sts/venues';
import { type HedgeResult, type LogEntry } from '@sts/contracts';
import type { HedgeContext } from './hedge-context';
import { spendNow } from '../../venue-sessions/paid-requests';
import {
  hedgeAttemptRequest,
  lostIocFate,
  refusalOf,
  retrySize,
  retryDelayMs,
  sendIoc,
} from './hedge-ioc';
import {
  hedgeOutcomeEntry,
  hedgeSentEntry,
  hedgeTimeoutEntry,
  iocFill,
  iocFilledEntry,
} from './hedge-entries';
import { HedgeDeadline } from './hedge-deadline';
import { inDoubt, inFlightAttempt, type InFlight, type SeriesState } from './hedge-series-state';

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
  /**
   * Classes the fill again when the series ends, if it was not classed when
   * it came: the move that ran the maker order over can reach the worker
   * just after the fill it caused.
   */
  classifyLate?: () => GuardFillClass | null;
  private state: SeriesState;
  private readonly resolveDone: () => void;
  private attempts = 0;
  private filled = new Big(0);
  private readonly fills: PricedFill[] = [];
  private lastOrderId: string | null = null;
  /** Set when an attempt's fate was settled from the venue's fills of it. */
  private fromFills: { position: string | null } | null = null;
  private awaitingTrust = false;
  private readonly deadline: HedgeDeadline;
  private timeoutLogged = false;
  private firstSentAt: number | null = null;

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
    let resolveDone = (): void => undefined;
    this.done = new Promise((resolve) => (resolveDone = resolve));
    this.resolveDone = resolveDone;
    this.deadline = new HedgeDeadline(context, () => this.onDeadline());
  }

  /** When the first attempt's IOC was handed to the venue client (null until it was). */
  get firstSentAtMs(): number | null {
    return this.firstSentAt;
  }

  get isEnded(): boolean {
    return this.state.kind === 'ended';
  }

  /**
   * Sends the next attempt, synchronously up to the venue call: its hedge_sent
   * entry, or null when it sends nothing.
   */
  sendAttempt(): LogEntry | null {
    const state = this.state;
    if (state.kind !== 'ready' && state.kind !== 'retry_wait') {
      return null;
    }
    if (!this.context.mayTouchVenue()) {
      this.sendOnceTrusted();
      return null;
    }
    if (this.attempts >= MAX_HEDGE_ATTEMPT) {
      this.onDeadline();
      return null;
    }
    this.attempts += 1;
    const attempt = this.attempts;
    const request = hedgeAttemptRequest(this.context, {
      size: state.reserved,
      attempt,
      cause: this.cause,
      reference: this.reference,
    });
    // Nothing sits between a maker fill and its hedge: the IOC goes first,
    // its token and its log entry after it. With the hedge budget dry (or in
    // debt from the hedge account's reads, which a venue may weigh at 50
    // tokens), the IOC goes on credit and what follows waits the debt out.
    this.place(request, state.reserved, attempt);
    this.firstSentAt ??= this.context.clock.now();
    spendNow(this.context.bucket);
    return hedgeSentEntry(this.context, request, attempt, this.cause, this.deadline.extendedMs);
  }

  /**
   * The lease is not trusted (a renewal held up): the attempt goes once it
   * is, still inside the hedge's timeout, which keeps running; once the lease
   * is lost the hedge is abandoned to the new owner, which reconciles.
   */
  private sendOnceTrusted(): void {
    if (this.awaitingTrust) {
      return;
    }
    this.awaitingTrust = true;
    void this.context.untilTrusted().then((trusted) => {
      this.awaitingTrust = false;
      if (!trusted) {
        return this.finish('abandoned');
      }
      const sent = this.sendAttempt();
      if (sent) {
        this.context.emit([sent]);
      }
    });
  }

  private place(request: PlaceOrderRequest, reserved: Big, attempt: number): void {
    const placing = sendIoc(this.context, request);
    // The IOC is out: only now the timer that notices an answer overdue (its venue's bound).
    const slowTimer = setTimeout(() => {
      const state = this.inFlight(attempt);
      if (state?.kind === 'at_venue') {
        this.enter({ ...state, overdue: true });
      }
    }, this.context.venue.answerExpectedMs());
    this.enter({
      kind: 'at_venue',
      reserved,
      attempt,
      sentAtMs: Date.now(),
      overdue: false,
      timedOut: false,
      slowTimer,
    });
    placing.then(
      (ack) => this.onOrder(attempt, ack.order, ack),
      (error: unknown) => this.onError(attempt, request, error),
    );
  }

  private inFlight(attempt: number): InFlight | null {
    return inFlightAttempt(this.state, attempt);
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
      this.context.emit([iocFilledEntry(this.context, order, fill, ack)]);
    }
    this.attemptOver(state, fill.size.gt(state.reserved) ? state.reserved : fill.size);
  }

  private onError(attempt: number, request: PlaceOrderRequest, error: unknown): void {
    const state = this.inFlight(attempt);
    if (!state) {
      return;
    }
    const answer = refusalOf(error, this.context, attempt);
    if (answer.kind === 'lost') {
      const { reserved, sentAtMs } = state;
      const { settlesByMs } = answer;
      // Lost after the timeout struck (it was still at the venue then): its fate may come later.
      const awaited =
        (state.timedOut || this.deadline.awaiting) && this.deadline.awaitFate(attempt, settlesByMs);
      const timedOut = state.timedOut && !awaited;
      this.enter({ kind: 'looking_up', reserved, attempt, sentAtMs, settlesByMs, timedOut });
      void this.lookUp(request, attempt, answer);
      return;
    }
    this.attemptOver(state, new Big(0), answer);
  }

  /** Settles an IOC whose fate is unknown (lostIocFate); no attempt goes while it may fill. */
  private async lookUp(
    request: PlaceOrderRequest,
    attempt: number,
    lost: { settlesByMs: number; accepted: boolean },
  ): Promise<void> {
    const sentAtMs = this.inFlight(attempt)?.sentAtMs ?? Date.now();
    const fate = await lostIocFate(this.context, {
      request,
      ...lost,
      sentAtMs,
      stillWaiting: () => this.inFlight(attempt) !== null,
      timedOut: () => this.inFlight(attempt)?.timedOut === true,
    });
    const state = this.inFlight(attempt);
    if (fate.kind === 'abandoned') {
      this.finish('abandoned');
    } else if (fate.kind === 'found') {
      this.onOrder(attempt, fate.order);
    } else if (fate.kind === 'fills') {
      this.fromFills = { position: fate.position };
      this.onOrder(attempt, fate.ack.order, fate.ack);
    } else if (state) {
      this.attemptOver(state, new Big(0));
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
    this.deadline.fateKnown();
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
    if (this.deadline.passed) {
      return this.onDeadline();
    }
    const next = retrySize(this.context, remainder, this.reference);
    if (next === null) {
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
   * hedge_timeout_ms passed: hedge_timeout is logged (once). An attempt in
   * doubt is waited for and the hedge may go on (HedgeDeadline); else no
   * further attempt: one at the venue (or looked up) settles first, and the
   * trade fails only for size the venue confirms unhedged.
   */
  private onDeadline(): void {
    const state = this.state;
    if (state.kind === 'ended' || ('timedOut' in state && state.timedOut)) {
      return;
    }
    this.logTimeout();
    if (inDoubt(state) && this.awaitFateOf(state as InFlight)) {
      return;
    }
    if (state.kind === 'at_venue' || state.kind === 'looking_up') {
      this.enter({ ...state, timedOut: true });
      return;
    }
    this.finish('timeout');
  }

  private logTimeout(): void {
    if (this.timeoutLogged) {
      return;
    }
    this.timeoutLogged = true;
    this.context.emit([
      hedgeTimeoutEntry(this.context, {
        lastOrderId: this.lastOrderId,
        waitedMs: this.deadline.waitedMs,
        unhedged: this.requested.minus(this.filled),
        cause: this.cause,
      }),
    ]);
  }

  /** The timeout struck with this attempt in doubt: its fate is waited for (HedgeDeadline), once. */
  private awaitFateOf(state: InFlight): boolean {
    const settlesByMs = state.kind === 'looking_up' ? state.settlesByMs : null;
    return this.deadline.awaitFate(state.attempt, settlesByMs);
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
   * The one way a hedge ends: what is reserved and not at the venue is released;
   * `abandoned` (lease gone) leaves an attempt at the venue to the new owner and
   * reports nothing; else the outcome is logged (a timeout or refusal in it fails the
   * trade: TradeState.apply).
   */
  private finish(result: HedgeResult | 'abandoned'): void {
    const last = this.state;
    if (last.kind === 'ended') {
      return;
    }
    this.enter({ kind: 'ended', result });
    this.deadline.clear();
    if (last.kind === 'ready' || last.kind === 'retry_wait') {
      this.context.settle(last.reserved, new Big(0));
    }
    if (result !== 'abandoned') {
      this.report(result);
    }
    this.resolveDone();
  }

  private report(result: HedgeResult): void {
    // What this hedge did not fill goes to the next hedge with its maker fills,
    // so each hedge's spread_achieved is of the maker fills it hedged.
    const { within: hedgedFills, beyond: unhedgedFills } = splitFillsAt(
      this.makerFills,
      this.filled,
    );
    if (unhedgedFills.length > 0) {
      this.context.uncover(unhedgedFills);
    }
    this.context.emit([
      hedgeOutcomeEntry(this.context, {
        result,
        cause: this.cause,
        requested: this.requested,
        filled: this.filled,
        attempts: this.attempts,
        fills: this.fills,
        makerFills: hedgedFills,
        reference: this.reference,
        guardFillClass: this.guardFillClass ?? this.classifyLate?.() ?? null,
        fromFills: this.fromFills,
      }),
    ]);
  }
}
