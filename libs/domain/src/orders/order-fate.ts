/**
 * What the service knows of one of its orders on a venue. Between a request
 * and the venue's answer an order is neither open nor closed: it is pending,
 * and when the answer is lost it is `unknown` until a look-up by its client
 * order id settles it. Every state but `closed` counts as size that may still
 * fill (style 14; nautilus_trader's PendingUpdate / PendingCancel).
 */
export const ORDER_FATES = [
  'pending_new',
  'open',
  'pending_cancel',
  'pending_replace',
  'unknown',
  'closed',
] as const;
export type OrderFate = (typeof ORDER_FATES)[number];

export type OrderFateEvent =
  /** The venue's answer or a look-up says it rests. */
  | 'rests'
  /** The venue's answer, a look-up or an order update says it is done (filled, canceled, rejected). */
  | 'closed'
  | 'cancel_sent'
  | 'replace_sent'
  /** The request was sent and its answer lost (timeout, socket cut, venue hang). */
  | 'answer_lost'
  /** The venue refused the request as a whole: the order is as it was before it. */
  | 'refused'
  /** A look-up after the request could no longer take effect found nothing: never placed. */
  | 'never_placed';

/**
 * Every legal change of fate. A `closed` order stays closed: the venue never
 * reopens one. Anything else is a bookkeeping bug, thrown as an error.
 */
const TRANSITIONS: Readonly<Record<OrderFate, Partial<Record<OrderFateEvent, OrderFate>>>> = {
  pending_new: { rests: 'open', closed: 'closed', answer_lost: 'unknown', refused: 'closed' },
  open: {
    rests: 'open',
    closed: 'closed',
    cancel_sent: 'pending_cancel',
    replace_sent: 'pending_replace',
  },
  pending_cancel: { rests: 'open', closed: 'closed', answer_lost: 'unknown', refused: 'open' },
  pending_replace: { rests: 'open', closed: 'closed', answer_lost: 'unknown', refused: 'open' },
  unknown: { rests: 'open', closed: 'closed', never_placed: 'closed', answer_lost: 'unknown' },
  closed: { closed: 'closed', rests: 'closed' },
};

export class OrderFateError extends Error {
  readonly code = 'order_fate';

  constructor(from: OrderFate, event: OrderFateEvent) {
    super(`illegal order fate change: ${event} from ${from}`);
    this.name = 'OrderFateError';
  }
}

export const nextOrderFate = (from: OrderFate, event: OrderFateEvent): OrderFate => {
  const to = TRANSITIONS[from][event];
  if (to === undefined) {
    throw new OrderFateError(from, event);
  }
  return to;
};

/**
 * What a look-up by client order id that found nothing proves. Before
 * `settlesByMs` (the time after which the venue refuses the request if it
 * has not reached it yet) the request may still be on its way: nothing is
 * proved and the order stays unknown. After it, the order was never placed.
 */
export const notFoundMeans = (nowMs: number, settlesByMs: number): 'never_placed' | 'undecided' =>
  nowMs >= settlesByMs ? 'never_placed' : 'undecided';

/**
 * How long a lost request may still take effect when the venue gives no
 * bound of its own (no order expiry): venues refuse requests older than
 * their receive window, which is seconds; a minute is beyond any of them.
 */
export const UNBOUNDED_REQUEST_SETTLE_MS = 60_000;

/**
 * When a request whose answer was lost at `nowMs` has surely landed or
 * never will: the bound its venue gives (`settlesByMs`), else the fallback.
 */
export const settlesBy = (settlesByMs: number | undefined, nowMs: number): number =>
  settlesByMs ?? nowMs + UNBOUNDED_REQUEST_SETTLE_MS;
