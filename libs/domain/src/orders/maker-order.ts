import type Big from 'big.js';
import type { OrderFate } from './order-fate';

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
