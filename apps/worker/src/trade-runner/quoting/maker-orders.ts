import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import {
  formatDecimal,
  makerClientOrderId,
  matchClientOrderId,
  tradeTag,
  type Side,
} from '@sts/domain';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  type PlaceOrderRequest,
  type VenueClient,
  type VenueFill,
  type VenueOrder,
} from '@sts/venues';
import type { LegMarket } from '../market-view';

/** The maker order resting (or being placed) on the maker venue. */
export interface RestingOrder {
  clientOrderId: string;
  price: Big;
  size: Big;
  filled: Big;
  orderId?: string;
  /** Its placement's answer was lost: it may or may not rest on the venue. */
  unknown: boolean;
  /**
   * Set while this order's replace is unconfirmed: the order it replaces,
   * which rests if the replace never reached the venue (marked unknown).
   */
  replacing?: RestingOrder;
}

/** What a maker request came to, for the trade's loop to act on. */
export type MakerOutcome =
  | { kind: 'done'; filledBeyondSeen?: boolean }
  | { kind: 'book_moved' }
  | { kind: 'wait'; ms: number }
  | { kind: 'rejected'; reason: string }
  | { kind: 'fatal'; reason: string };

export interface MakerOrdersContext {
  tradeId: string;
  /** The lease epoch: quote numbers start at epoch x 1e6, so no two workers reuse a client order id. */
  epoch: string;
  client: VenueClient;
  leg: LegMarket;
  side: Side;
  bucket: TokenBucket;
  signal: AbortSignal;
  /**
   * Called the moment a placement or cancel has been handed to the venue
   * client; `waitedForBudget` when it first had to wait for a token.
   */
  onRequestSent?: (waitedForBudget: boolean) => void;
}

const QUOTES_PER_EPOCH = 1_000_000;

/**
 * Places and cancels the trade's maker order, one request at a time, each
 * paid for from the maker bucket (it waits when the bucket is empty), and
 * keeps what rests in step with the fills and order updates of the stream.
 */
export class MakerOrders {
  resting: RestingOrder | null = null;
  private quoteCount = 0;
  private readonly tag: string;

  constructor(private readonly context: MakerOrdersContext) {
    this.tag = tradeTag(context.tradeId);
  }

  /** Posts a new maker order (post-only). */
  async place(price: Big, size: Big): Promise<MakerOutcome> {
    const paying = this.pay();
    const waited = paying !== false && (await paying);
    const order = this.nextOrder(price, size);
    this.resting = order;
    try {
      const placing = this.context.client.placePostOnly(this.placement(order));
      this.context.onRequestSent?.(waited);
      const ack = await placing;
      order.orderId = ack.order.orderId;
      if (this.resting === order && isClosed(ack.order)) this.resting = null;
      return { kind: 'done' };
    } catch (error) {
      return this.placementFailed(order, error);
    }
  }

  /** Takes the resting order off the book. */
  async cancel(): Promise<MakerOutcome> {
    const order = this.resting;
    if (!order) return { kind: 'done' };
    const paying = this.pay();
    const waited = paying !== false && (await paying);
    try {
      const canceling = this.context.client.cancel({
        clientOrderId: order.clientOrderId,
        symbol: this.context.leg.symbol,
      });
      this.context.onRequestSent?.(waited);
      const result = await canceling;
      if (this.resting === order) this.resting = null;
      return { kind: 'done', filledBeyondSeen: filledBeyondSeen(order, result.order) };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        if (this.resting === order) this.resting = null;
        return { kind: 'done' };
      }
      return this.requestFailed(error);
    }
  }

  /**
   * Moves the resting order to `price` and `size` in one venue request: the
   * venue cancels it and places the new one only if it had filled exactly
   * what this trade has seen, so an unseen fill is never quoted over.
   */
  async replace(price: Big, size: Big): Promise<MakerOutcome> {
    const previous = this.resting;
    if (!previous || previous.unknown) return this.cancel();
    const paying = this.pay();
    const waited = paying !== false && (await paying);
    if (this.resting !== previous) return { kind: 'done' };
    const order = this.nextOrder(price, size);
    order.replacing = previous;
    this.resting = order;
    try {
      const replacing = this.context.client.replace({
        target: { clientOrderId: previous.clientOrderId, symbol: this.context.leg.symbol },
        next: this.placement(order),
        expectedFilledSize: formatDecimal(previous.filled),
      });
      this.context.onRequestSent?.(waited);
      const result = await replacing;
      order.replacing = undefined;
      const beyond = filledBeyondSeen(previous, result.canceled.order);
      if (result.placed) {
        order.orderId = result.placed.order.orderId;
        if (this.resting === order && isClosed(result.placed.order)) this.resting = null;
        return { kind: 'done', filledBeyondSeen: beyond };
      }
      if (this.resting === order) this.resting = null;
      if (result.placeError) return this.placementFailed(order, result.placeError);
      return { kind: 'done', filledBeyondSeen: beyond };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        // The venue does not know the order it was asked to replace: nothing rests.
        if (this.resting === order) this.resting = null;
        return { kind: 'done' };
      }
      if (
        error instanceof OrderRejectedError ||
        error instanceof RateLimitedError ||
        error instanceof VenueAuthError
      ) {
        // Refused as a whole: the previous order rests as it was.
        if (this.resting === order) this.resting = previous;
        return this.requestFailed(error);
      }
      // No answer: the new order may rest, or the previous one. The next cycle asks the venue.
      order.unknown = true;
      previous.unknown = true;
      return { kind: 'wait', ms: 200 };
    }
  }

  /** A placement whose answer was lost: is it on the book? */
  async resolveUnknown(): Promise<MakerOutcome> {
    const order = this.resting;
    if (!order?.unknown) return { kind: 'done' };
    const paying = this.pay();
    if (paying !== false) await paying;
    try {
      const found = await this.context.client.order({
        clientOrderId: order.clientOrderId,
        symbol: this.context.leg.symbol,
      });
      order.unknown = false;
      order.replacing = undefined;
      order.orderId = found.orderId;
      if (this.resting === order && isClosed(found)) this.resting = null;
      return { kind: 'done', filledBeyondSeen: filledBeyondSeen(order, found) };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        // Never placed. After a replace whose answer was lost, the order it
        // replaced may still rest: that one is looked up next.
        if (this.resting === order) this.resting = order.replacing ?? null;
        return { kind: 'done' };
      }
      return this.requestFailed(error);
    }
  }

  /** A maker fill of this trade (stream, read-back or reconciliation). */
  onFill(fill: VenueFill): void {
    const replaced = this.resting?.replacing;
    if (replaced?.clientOrderId === fill.clientOrderId) {
      // A fill of the order being replaced: the venue's answer is checked against it.
      replaced.filled = replaced.filled.plus(fill.size);
      return;
    }
    const order = this.resting;
    if (!order || order.clientOrderId !== fill.clientOrderId) return;
    order.filled = order.filled.plus(fill.size);
    if (fill.fullyFilled || order.filled.gte(order.size)) this.resting = null;
  }

  /** An order update of this trade: a closed resting order is gone (filled, canceled by the venue). */
  onOrder(order: VenueOrder): void {
    if (this.resting?.clientOrderId === order.clientOrderId && isClosed(order)) this.resting = null;
  }

  /** Is this venue order one of this trade's maker orders? */
  isMakerOrder(venueClientOrderId: string): boolean {
    return matchClientOrderId(venueClientOrderId, this.context.tradeId)?.kind === 'maker';
  }

  /**
   * Takes a token: at once when the bucket has one (false, and nothing is
   * awaited, so the request goes out in the same turn as the decision to send
   * it), else a promise of `true` once the bucket let it through.
   */
  private pay(): false | Promise<true> {
    if (this.context.bucket.take()) return false;
    return this.context.bucket.waitFor(1, this.context.signal).then(() => true as const);
  }

  /** A new maker order with the next client order id of this lease. */
  private nextOrder(price: Big, size: Big): RestingOrder {
    const quoteNumber = Number(this.context.epoch) * QUOTES_PER_EPOCH + this.quoteCount;
    this.quoteCount += 1;
    return {
      clientOrderId: makerClientOrderId(this.tag, quoteNumber),
      price,
      size,
      filled: new Big(0),
      unknown: false,
    };
  }

  private placement(order: RestingOrder): PlaceOrderRequest {
    return {
      symbol: this.context.leg.symbol,
      side: this.context.side,
      price: formatDecimal(order.price),
      size: formatDecimal(order.size),
      clientOrderId: order.clientOrderId,
    };
  }

  private placementFailed(order: RestingOrder, error: unknown): MakerOutcome {
    if (error instanceof PostOnlyWouldCrossError || error instanceof RateLimitedError) {
      if (this.resting === order) this.resting = null;
      return error instanceof RateLimitedError
        ? { kind: 'wait', ms: error.retryAfterMs }
        : { kind: 'book_moved' };
    }
    if (error instanceof OrderRejectedError || error instanceof VenueAuthError) {
      if (this.resting === order) this.resting = null;
      return this.requestFailed(error);
    }
    // No answer: the order may rest. The next cycle asks the venue before anything else.
    order.unknown = true;
    return { kind: 'wait', ms: 200 };
  }

  private requestFailed(error: unknown): MakerOutcome {
    if (error instanceof VenueAuthError)
      return { kind: 'fatal', reason: `${this.context.leg.venue} rejected the credentials` };
    if (error instanceof RateLimitedError) return { kind: 'wait', ms: error.retryAfterMs };
    if (error instanceof OrderRejectedError) return { kind: 'rejected', reason: error.reason };
    return { kind: 'wait', ms: 250 };
  }
}

const isClosed = (order: VenueOrder): boolean =>
  order.status === 'filled' || order.status === 'canceled' || order.status === 'rejected';

/** Did the venue's copy of the order fill more than the fills this trade has seen of it? */
const filledBeyondSeen = (seen: RestingOrder, venue: VenueOrder | undefined): boolean =>
  venue !== undefined && new Big(venue.filledSize).gt(seen.filled);
