import Big from 'big.js';
import { compare, signOf } from '../decimal/compare';
import {
  nextOrderFate,
  notFoundMeans,
  UNBOUNDED_REQUEST_SETTLE_MS,
  type OrderFate,
  type OrderFateEvent,
} from './order-fate';

/** What the venue said of an order: in an answer, a look-up or an order update. */
export interface VenueOrderReport {
  /** Filled, canceled or rejected: it rests no more. */
  closed: boolean;
  filledSize: Big;
}

export interface LedgerOrder {
  readonly clientOrderId: string;
  readonly price: Big;
  readonly size: Big;
  readonly fate: OrderFate;
  /** Fills of it the trade has counted. */
  readonly seenFilled: Big;
  /** The most the venue has said it filled. More than seenFilled: fills not counted yet. */
  readonly venueFilled: Big;
  /** Unknown: when a look-up that finds nothing proves it never reached the venue. */
  readonly settlesByMs: number | null;
  /** Unknown: not to be looked up again before this (an earlier look-up found nothing). */
  readonly lookUpAtMs: number;
  /** The order this one replaces (a replace in one request), while that one's fate is open. */
  readonly replaces: string | null;
}

/**
 * What must happen before the trade may decide anything about its maker
 * order, most urgent first. Only `quote` lets the quote cycle place, replace
 * or cancel: every other case means the venue's view and the trade's may
 * differ, and a decision taken now could put size on the book beyond what
 * remains to fill.
 */
export type MakerObligation =
  /** An answer was lost: ask the venue for this order by its client order id. */
  | { kind: 'settle'; order: LedgerOrder }
  /** A look-up found nothing, but the request may still arrive: ask again at `atMs`. */
  | { kind: 'settle_at'; atMs: number }
  /** The venue reported fills the trade has not counted: read them back (and hedge them). */
  | { kind: 'read_fills'; clientOrderIds: string[] }
  /** Two orders may rest (should not happen): the older one comes down first. */
  | { kind: 'cancel'; order: LedgerOrder }
  /** Nothing unsettled: the quote cycle decides on `current` (the one order that may rest). */
  | { kind: 'quote'; current: LedgerOrder | null };

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
export class MakerOrderLedger {
  private readonly orders: MutableOrder[] = [];

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
    }
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
  }

  /** The venue's word on an order: an answer, a look-up that found it, or an order update. */
  report(clientOrderId: string, report: VenueOrderReport): void {
    const order = this.locate(clientOrderId);
    if (!order) {
      return;
    }
    if (compare(report.filledSize, order.venueFilled) > 0) {
      order.venueFilled = report.filledSize;
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
      const bound = settlesByMs ?? nowMs + UNBOUNDED_REQUEST_SETTLE_MS;
      order.settlesByMs = Math.max(order.settlesByMs ?? 0, bound);
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
    if (compare(order.seenFilled, order.venueFilled) > 0) {
      order.venueFilled = order.seenFilled;
    }
    if (compare(order.seenFilled, order.size) >= 0 && order.fate !== 'closed') {
      this.change(order, 'closed');
    }
    // A fill of the new order of a replace: the venue swapped them.
    this.replaceTookPlace(order);
  }

  /** Fills the venue reported that the trade has not counted, over all orders. */
  uncounted(): Big {
    let total = ZERO;
    for (const order of this.orders) {
      const missing = order.venueFilled.minus(order.seenFilled);
      if (signOf(missing) > 0) {
        total = total.plus(missing);
      }
    }
    return total;
  }

  /**
   * The most that may still fill on the venue: every order not known closed
   * counts its unfilled size, except that a replace in flight counts the
   * larger of the two (the venue swaps them in one step, and only if the old
   * one filled exactly what the trade saw).
   */
  exposure(): Big {
    let total = ZERO;
    const live = this.live;
    for (const order of live) {
      // The old order of an unsettled replace is counted with its successor.
      if (live.some((other) => other.replaces === order.clientOrderId)) {
        continue;
      }
      const previous = live.find((other) => other.clientOrderId === order.replaces);
      const own = leaves(order);
      const other = previous ? leaves(previous) : ZERO;
      total = total.plus(compare(own, other) >= 0 ? own : other);
    }
    return total;
  }

  /**
   * What must happen next (see MakerObligation). Runs on every quote cycle:
   * one pass over the orders, nothing allocated but the answer.
   */
  obligation(nowMs: number): MakerObligation {
    let settle: LedgerOrder | undefined;
    let settleAt = Infinity;
    let uncounted = false;
    let live = 0;
    let oldest: LedgerOrder | undefined;
    let newest: LedgerOrder | undefined;
    for (const order of this.orders) {
      if (order.fate === 'unknown') {
        // The new order of a replace first: if it rests, the old one is gone.
        if (order.lookUpAtMs > nowMs) {
          settleAt = Math.min(settleAt, order.lookUpAtMs);
        } else if (!settle || (order.replaces !== null && settle.replaces === null)) {
          settle = order;
        }
      }
      if (compare(order.venueFilled, order.seenFilled) > 0) {
        uncounted = true;
      }
      if (order.fate !== 'closed') {
        live += 1;
        oldest ??= order;
        newest = order;
      }
    }
    if (settle) {
      return { kind: 'settle', order: settle };
    }
    if (settleAt < Infinity) {
      return { kind: 'settle_at', atMs: settleAt };
    }
    if (uncounted) {
      return {
        kind: 'read_fills',
        clientOrderIds: this.orders
          .filter((order) => compare(order.venueFilled, order.seenFilled) > 0)
          .map((order) => order.clientOrderId),
      };
    }
    if (live < this.orders.length) {
      this.prune();
    }
    if (live > 1 && oldest) {
      return { kind: 'cancel', order: oldest };
    }
    return { kind: 'quote', current: newest ?? null };
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
    order.fate = nextOrderFate(order.fate, event);
    if (order.fate !== 'unknown') {
      order.settlesByMs = null;
      order.lookUpAtMs = 0;
    }
  }
}

/** Size of an order that may still fill. */
const leaves = (order: LedgerOrder): Big => {
  const filled =
    compare(order.venueFilled, order.seenFilled) >= 0 ? order.venueFilled : order.seenFilled;
  const left = order.size.minus(filled);
  return signOf(left) > 0 ? left : ZERO;
};
