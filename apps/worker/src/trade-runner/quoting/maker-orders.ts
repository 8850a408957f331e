import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import { clientOrderId, formatDecimal, matchClientOrderId, type Side } from '@sts/domain';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
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

  constructor(private readonly context: MakerOrdersContext) {}

  /** Posts a new maker order (post-only). */
  async place(price: Big, size: Big): Promise<MakerOutcome> {
    const waited = await this.pay();
    const quoteNumber = Number(this.context.epoch) * QUOTES_PER_EPOCH + this.quoteCount;
    this.quoteCount += 1;
    const order: RestingOrder = {
      clientOrderId: clientOrderId(this.context.tradeId, { kind: 'maker', quoteNumber }),
      price,
      size,
      filled: new Big(0),
      unknown: false,
    };
    this.resting = order;
    try {
      const placing = this.context.client.placePostOnly({
        symbol: this.context.leg.symbol,
        side: this.context.side,
        price: formatDecimal(price),
        size: formatDecimal(size),
        clientOrderId: order.clientOrderId,
      });
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
    const waited = await this.pay();
    try {
      const canceling = this.context.client.cancel({
        clientOrderId: order.clientOrderId,
        symbol: this.context.leg.symbol,
      });
      this.context.onRequestSent?.(waited);
      const result = await canceling;
      if (this.resting === order) this.resting = null;
      const venueFilled = result.order ? new Big(result.order.filledSize) : order.filled;
      return { kind: 'done', filledBeyondSeen: venueFilled.gt(order.filled) };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        if (this.resting === order) this.resting = null;
        return { kind: 'done' };
      }
      return this.requestFailed(error);
    }
  }

  /** A placement whose answer was lost: is it on the book? */
  async resolveUnknown(): Promise<MakerOutcome> {
    const order = this.resting;
    if (!order?.unknown) return { kind: 'done' };
    await this.pay();
    try {
      const found = await this.context.client.order({
        clientOrderId: order.clientOrderId,
        symbol: this.context.leg.symbol,
      });
      order.unknown = false;
      order.orderId = found.orderId;
      if (this.resting === order && isClosed(found)) this.resting = null;
      return { kind: 'done', filledBeyondSeen: new Big(found.filledSize).gt(order.filled) };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        if (this.resting === order) this.resting = null;
        return { kind: 'done' };
      }
      return this.requestFailed(error);
    }
  }

  /** A maker fill of this trade (stream, read-back or reconciliation). */
  onFill(fill: VenueFill): void {
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

  /** Takes a token, waiting when the bucket is empty. True when it had to wait. */
  private async pay(): Promise<boolean> {
    if (this.context.bucket.take()) return false;
    await this.context.bucket.waitFor(1, this.context.signal);
    return true;
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
