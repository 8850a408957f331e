import Big from 'big.js';
import { compare } from '../decimal/compare';
import { unitsOf } from '../quoting/fixed-point-quote';
import type { LedgerOrder, MakerObligation, VenueOrderReport } from './maker-order';
import { exposureOf, obligationOf, uncountedFills } from './maker-obligation';
import { nextOrderFate, notFoundMeans, settlesBy, type OrderFateEvent } from './order-fate';

type MutableOrder = { -readonly [K in keyof LedgerOrder]: LedgerOrder[K] };

const ZERO = new Big(0);

/**
 * The trade's maker orders as the trade knows them, each with its fate
 * (order-fate.ts), what the trade has seen fill of it and what the venue has
 * said. Pure bookkeeping: the worker sends the requests and tells the ledger
 * what it sent and what came back; the ledger says what must happen next.
 *
 * The rule it keeps: a new order is placed only when every other order is
 * confirmed closed and every fill the venue reported is counted, and a
 * replace only moves an order confirmed open. With the order sized from the
 * counted fills, what rests or may rest never exceeds what remains to fill,
 * however answers are lost or delayed (maker-order-ledger.property.spec.ts).
 */
export type { LedgerOrder, MakerObligation, VenueOrderReport } from './maker-order';

/**
 * What the trade's quoting came to on one ledger: how long an order was out
 * (from a placement's send until no order is left that is not known closed:
 * an order in flight or in doubt may rest, so it counts), and how many
 * orders were placed (a replace's new order included), replaced and
 * canceled. Counts only grow.
 */
export interface QuotingActivity {
  quotedMs: number;
  placed: number;
  replaced: number;
  canceled: number;
}

export class MakerOrderLedger {
  private readonly orders: MutableOrder[] = [];
  private readonly forgetClosed = (): void => this.prune();
  private readonly tally: QuotingActivity = { quotedMs: 0, placed: 0, replaced: 0, canceled: 0 };
  /** Since when some order has been out (by `now`); null while none is. */
  private outSinceMs: number | null = null;
  private revisionValue = 0;

  /**
   * `now`: a monotonic clock in ms (time quoted is a duration: a wall clock
   * stepped back would make it shrink), read only when the first order goes
   * out or the last one closes.
   */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Grows whenever an order is added, forgotten or changes fate or fills:
   * what it had resting at a price (`restingAt`) is as it was while this
   * stays the same.
   */
  get revision(): number {
    return this.revisionValue;
  }

  /** The quoting so far, the spell of the order out now counted up to now. */
  activity(): QuotingActivity {
    const out = this.outSinceMs === null ? 0 : Math.max(0, this.now() - this.outSinceMs);
    return { ...this.tally, quotedMs: this.tally.quotedMs + out };
  }

  /** Every order not known to be closed, oldest first. */
  get live(): readonly LedgerOrder[] {
    return this.orders.filter((order) => order.fate !== 'closed');
  }

  /** The newest order not known to be closed: the one the quote cycle manages. */
  get current(): LedgerOrder | null {
    for (let i = this.orders.length - 1; i >= 0; i -= 1) {
      if (this.orders[i].fate !== 'closed') {
        return this.orders[i];
      }
    }
    return null;
  }

  find(clientOrderId: string): LedgerOrder | undefined {
    return this.locate(clientOrderId);
  }

  /** A placement is being sent (`replaces`: in one request with the cancel of that order). */
  placing(clientOrderId: string, price: Big, size: Big, replaces?: string): void {
    if (replaces !== undefined) {
      this.change(this.get(replaces), 'replace_sent');
      this.tally.replaced += 1;
    }
    this.tally.placed += 1;
    this.revisionValue += 1;
    this.outSinceMs ??= this.now();
    this.orders.push({
      clientOrderId,
      price,
      size,
      fate: 'pending_new',
      seenFilled: ZERO,
      venueFilled: ZERO,
      settlesByMs: null,
      lookUpAtMs: 0,
      replaces: replaces ?? null,
    });
  }

  cancelling(clientOrderId: string): void {
    this.change(this.get(clientOrderId), 'cancel_sent');
    this.tally.canceled += 1;
  }

  /** The venue's word on an order: an answer, a look-up that found it, or an order update. */
  report(clientOrderId: string, report: VenueOrderReport): void {
    const order = this.locate(clientOrderId);
    if (!order) {
      return;
    }
    if (compare(report.filledSize, order.venueFilled) > 0) {
      order.venueFilled = report.filledSize;
      this.revisionValue += 1;
    }
    this.change(order, report.closed ? 'closed' : 'rests');
    this.replaceTookPlace(order);
  }

  /**
   * A replace was answered: the old order's final state, and the new order's
   * (null: not placed, because the old one was not open as the trade saw it).
   */
  replaced(
    previous: string,
    previousReport: VenueOrderReport,
    next: string,
    nextReport: VenueOrderReport | null,
  ): void {
    this.report(previous, { ...previousReport, closed: true });
    if (nextReport) {
      this.report(next, nextReport);
    } else {
      const order = this.get(next);
      this.change(order, 'refused');
      order.replaces = null;
    }
  }

  /** The venue refused the request as a whole (a placement: no order; a cancel or replace: as before). */
  refused(clientOrderId: string): void {
    const order = this.get(clientOrderId);
    this.change(order, 'refused');
    if (order.replaces !== null) {
      const previous = this.locate(order.replaces);
      if (previous && previous.fate === 'pending_replace') {
        this.change(previous, 'refused');
      }
      order.replaces = null;
    }
  }

  /**
   * A request's answer was lost: each order it concerned is unknown until a
   * look-up settles it. `settlesByMs` is when the venue would refuse the
   * request were it still on its way (none: the venue gives no bound).
   */
  answerLost(clientOrderIds: readonly string[], nowMs: number, settlesByMs?: number): void {
    for (const clientOrderId of clientOrderIds) {
      const order = this.get(clientOrderId);
      if (order.fate === 'closed') {
        continue;
      }
      this.change(order, 'answer_lost');
      order.settlesByMs = Math.max(order.settlesByMs ?? 0, settlesBy(settlesByMs, nowMs));
    }
  }

  /** A look-up by client order id found nothing. */
  notFound(clientOrderId: string, nowMs: number): 'never_placed' | 'undecided' {
    const order = this.get(clientOrderId);
    if (order.fate === 'closed') {
      return 'never_placed';
    }
    const settlesBy = order.settlesByMs ?? nowMs;
    const meaning = notFoundMeans(nowMs, settlesBy);
    if (meaning === 'undecided') {
      order.lookUpAtMs = settlesBy;
      return meaning;
    }
    if (order.fate === 'unknown') {
      this.change(order, 'never_placed');
    } else {
      this.change(order, 'closed');
    }
    // The new order of a replace never reached the venue: the old one is as it was (looked up next).
    order.replaces = null;
    return meaning;
  }

  /** A fill of one of these orders, counted by the trade (stream, read-back or reconciliation). */
  fill(clientOrderId: string, size: Big): void {
    const order = this.locate(clientOrderId);
    if (!order) {
      return;
    }
    order.seenFilled = order.seenFilled.plus(size);
    this.revisionValue += 1;
    if (compare(order.seenFilled, order.venueFilled) > 0) {
      order.venueFilled = order.seenFilled;
    }
    if (compare(order.seenFilled, order.size) >= 0 && order.fate !== 'closed') {
      this.change(order, 'closed');
    }
    // A fill of the new order of a replace: the venue swapped them.
    this.replaceTookPlace(order);
  }

  /**
   * What the orders not known closed may have resting at `price` (each its
   * size less the most the venue said filled): the trade's own size in a
   * level of the public book. Nothing is allocated when none rests there.
   */
  restingAt(price: Big): Big {
    let resting = ZERO;
    for (const order of this.orders) {
      if (order.fate !== 'closed' && compare(order.price, price) === 0) {
        resting = resting.plus(order.size.minus(order.venueFilled));
      }
    }
    return resting;
  }

  /**
   * `restingAt(price)` as a whole number of `10^-scale` units, allocating
   * nothing (a book update reaches every trade on its market, and each asks
   * this at the levels of the update); null when a size or fill has more
   * places than `scale` or the sum passes what a double holds exactly.
   */
  restingUnitsAt(price: Big, scale: number): number | null {
    let resting = 0;
    for (let i = 0; i < this.orders.length; i += 1) {
      const order = this.orders[i];
      if (order.fate !== 'closed' && compare(order.price, price) === 0) {
        const size = unitsOf(order.size, scale);
        const filled = unitsOf(order.venueFilled, scale);
        if (size === null || filled === null) {
          return null;
        }
        resting += size - filled;
      }
    }
    return Number.isSafeInteger(resting) ? resting : null;
  }

  /** Fills the venue reported that the trade has not counted, over all orders. */
  uncounted(): Big {
    return uncountedFills(this.orders);
  }

  /**
   * The most that may still fill on the venue: every order not known closed
   * counts its unfilled size, except that a replace in flight counts the
   * larger of the two (the venue swaps them in one step, and only if the old
   * one filled exactly what the trade saw).
   */
  exposure(): Big {
    return exposureOf(this.live);
  }

  /**
   * What must happen next (see MakerObligation). Runs on every quote cycle:
   * one pass over the orders, nothing allocated but the answer.
   */
  obligation(nowMs: number): MakerObligation {
    return obligationOf(this.orders, nowMs, this.forgetClosed);
  }

  /**
   * The new order of a replace is known to the venue (it rests, closed or
   * filled): the venue made the swap, so the old order is closed, having
   * filled exactly what the trade saw of it (the replace's condition).
   */
  private replaceTookPlace(order: MutableOrder): void {
    if (order.replaces === null || order.fate === 'pending_new') {
      return;
    }
    const previous = this.locate(order.replaces);
    order.replaces = null;
    if (previous && previous.fate !== 'closed') {
      this.change(previous, 'closed');
    }
  }

  /** Closed orders whose fills are all counted are forgotten. */
  private prune(): void {
    for (let i = this.orders.length - 1; i >= 0; i -= 1) {
      const order = this.orders[i];
      if (order.fate === 'closed' && compare(order.venueFilled, order.seenFilled) <= 0) {
        this.orders.splice(i, 1);
        this.revisionValue += 1;
      }
    }
  }

  private locate(clientOrderId: string): MutableOrder | undefined {
    return this.orders.find((order) => order.clientOrderId === clientOrderId);
  }

  private get(clientOrderId: string): MutableOrder {
    const order = this.locate(clientOrderId);
    if (!order) {
      throw new Error(`no maker order ${clientOrderId} in the ledger`);
    }
    return order;
  }

  private change(order: MutableOrder, event: OrderFateEvent): void {
    const wasClosed = order.fate === 'closed';
    order.fate = nextOrderFate(order.fate, event);
    this.revisionValue += 1;
    if (order.fate !== 'unknown') {
      order.settlesByMs = null;
      order.lookUpAtMs = 0;
    }
    if (!wasClosed && order.fate === 'closed') {
      this.closedOne();
    }
  }

  /** An order closed: the spell ends when it was the last one out. */
  private closedOne(): void {
    if (this.outSinceMs === null || this.current !== null) {
      return;
    }
    this.tally.quotedMs += Math.max(0, this.now() - this.outSinceMs);
    this.outSinceMs = null;
  }
}
