import type Big from 'big.js';
import type { BookDelta, Side } from './order-book';

export type OrderType = 'post_only' | 'ioc';
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'canceled';

/** An account's order as the venue records it (prices in ticks, sizes in lots). */
export interface EngineOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly priceTicks: number;
  readonly sizeLots: number;
  /** Set (true) only on a reduce-only order: it may only take the account's position down. */
  readonly reduceOnly?: true;
  filledLots: number;
  /** Sum of price x size of the fills, in quote units. */
  filledValue: Big;
  status: OrderStatus;
  readonly createdAtMs: number;
  updatedAtMs: number;
}

export interface EngineFill {
  readonly fillId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly lots: number;
  readonly liquidity: 'maker' | 'taker';
  readonly fee: Big;
  readonly orderFullyFilled: boolean;
  readonly tsMs: number;
}

export interface PlaceCommand {
  symbol: string;
  side: Side;
  type: OrderType;
  price: string;
  size: string;
  clientOrderId: string;
  /**
   * Only reduces the account's position (IOC only): it takes at most the
   * position's size, and is refused when there is no position on the other
   * side to reduce. Needs no margin.
   */
  reduceOnly?: boolean;
  /**
   * Which of the market's minimums a reduce-only order is spared, where its
   * venue says so (each dialect's README has the source): none (`apply`, the
   * default), the notional minimum (`waive_notional`), the notional minimum
   * when the order's size is the whole position it reduces
   * (`waive_notional_if_closing`), or both (`waive_all`). Ignored unless
   * `reduceOnly`.
   */
  reduceOnlyMinimums?: ReduceOnlyMinimums;
}

export type ReduceOnlyMinimums =
  'apply' | 'waive_notional' | 'waive_notional_if_closing' | 'waive_all';

export type CancelCommand = { orderId: string } | { clientOrderId: string };

export interface PlaceOutcome {
  order: EngineOrder;
  fills: EngineFill[];
  duplicate: boolean;
}

export interface ReplaceOutcome {
  /** The target as it is now (canceled, or already closed when `wasOpen` is false). */
  canceled: EngineOrder;
  wasOpen: boolean;
  /** Present when `next` was placed. */
  placed?: PlaceOutcome;
  /** Why `next` was refused after the cancel. */
  placeError?: SimError;
}

/** What the engine publishes as it runs; the wire layer fans it out. */
export interface EngineSink {
  book(venue: string, symbol: string, delta: BookDelta & { seq: number }, tsMs: number): void;
  order(venue: string, order: EngineOrder): void;
  fill(venue: string, fill: EngineFill): void;
}

export const SIM_ERROR_CODES = [
  'unknown_market',
  'invalid_order',
  'post_only_would_cross',
  'insufficient_margin',
  'duplicate_client_order_id',
  'unknown_order',
  'order_not_open',
  'rejected',
] as const;
export type SimErrorCode = (typeof SIM_ERROR_CODES)[number];

/** A venue refusal; the HTTP edge maps the code to a status. */
export class SimError extends Error {
  constructor(
    readonly code: SimErrorCode,
    message: string,
    readonly reason?: string,
    readonly order?: EngineOrder,
  ) {
    super(message);
    this.name = 'SimError';
  }
}
