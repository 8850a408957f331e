import type { VenueError } from '../errors';

export type OrderSide = 'buy' | 'sell';

/** `post_only`: rests or is rejected, never takes. `ioc`: takes what the book offers, rest canceled. */
export type OrderType = 'post_only' | 'ioc';

export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'canceled' | 'rejected';

/** Whether an order still rests on the venue (it may fill or be canceled). */
export const isResting = (order: { status: OrderStatus }): boolean =>
  order.status === 'open' || order.status === 'partially_filled';

export interface PlaceOrderRequest {
  /** Venue symbol (VenueMarket.entry.symbol). */
  symbol: string;
  side: OrderSide;
  /** Limit price, a multiple of the market's tick size. */
  price: string;
  /** Base size in contract units, a multiple of the lot size. */
  size: string;
  /**
   * Caller-chosen id, unique per account. Deterministic ids let a restarted
   * worker map the venue's orders and fills back to the trade that sent them.
   */
  clientOrderId: string;
  /**
   * How long the venue may still execute the request after it is sent, and
   * its answer is awaited (the client's own default when absent). A request
   * whose answer is lost settles that much sooner: a hedge IOC gives itself a
   * fraction of the hedge timeout, so a lost one is known unplaced, and
   * retried, while the hedge may still fill.
   */
  lifetimeMs?: number;
  /**
   * The order may only reduce the account's position in the market, never
   * open or add to one (an IOC that unwinds what a trade could not hedge,
   * decisions 2). Venues cap it to the position or refuse it.
   */
  reduceOnly?: boolean;
}

export interface VenueOrder {
  exchange: string;
  symbol: string;
  /** Canonical symbol of the market. */
  market: string;
  orderId: string;
  clientOrderId: string;
  side: OrderSide;
  type: OrderType;
  price: string;
  size: string;
  filledSize: string;
  /** Volume-weighted fill price; absent until something filled. */
  averagePrice?: string;
  status: OrderStatus;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * Result of a placement. `duplicate` is true when the venue already knew the
 * client order id with the same parameters and returned that order instead of
 * placing a second one (an idempotent retry after a timeout is safe).
 */
export interface OrderAck {
  order: VenueOrder;
  /** Fills the placement caused at once (an IOC's takes); also streamed. */
  fills: VenueFill[];
  duplicate: boolean;
}

export interface VenueFill {
  exchange: string;
  symbol: string;
  market: string;
  side: OrderSide;
  price: string;
  size: string;
  orderId: string;
  clientOrderId: string;
  /** True when this fill completed the order. */
  fullyFilled: boolean;
  timestampMs: number;
  /** The venue's id of this fill; unique per venue, the key to deduplicate on. */
  fillId: string;
  liquidity: 'maker' | 'taker';
  /** Fee paid in the quote asset (negative for a rebate), when the venue reports it. */
  fee?: string;
}

export type CancelTarget =
  { clientOrderId: string; symbol?: string } | { orderId: string; symbol?: string };

/**
 * `canceled`: the order was open and is now canceled. `not_open`: the venue
 * knows the order but it had already filled or been canceled (see `order`).
 */
export interface CancelResult {
  outcome: 'canceled' | 'not_open';
  order?: VenueOrder;
}

/**
 * One order of a batched request, answered as its own call would have been:
 * the call's answer, or the error the call would have thrown (an order
 * refused alone, or the whole request failed; a lost answer leaves each
 * order's fate unknown, to be settled by its client order id).
 */
export type BatchAnswer<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface ReplaceRequest {
  target: CancelTarget;
  /** The post-only order that replaces the target (same symbol and side). */
  next: PlaceOrderRequest;
  /**
   * Place `next` only if the target had filled exactly this much: the fills
   * the caller has seen. A fill it has not seen yet would otherwise be
   * quoted over (`next` was sized without it).
   */
  expectedFilledSize?: string;
}

export interface ReplaceResult {
  canceled: CancelResult;
  /** Present when `next` was placed. */
  placed?: OrderAck;
  /** The venue refused `next` after the cancel (e.g. post-only would cross); the cancel stands. */
  placeError?: VenueError;
}
