import { VenueNetworkError, type VenueError } from '../errors';
import type { CancelTarget, OrderType, PlaceOrderRequest, ReplaceRequest } from '../model/orders';
import type { CallOptions, PaperHttp } from './paper-http';
import type { OrderRequestMessage, PaperStream } from './paper-stream';
import type {
  WireError,
  WireExpiry,
  WireOrderTarget,
  WirePlaceOrder,
  WireReplaceOrder,
} from './protocol';

/**
 * After an order request's expiry, how long before a look-up by client order
 * id is conclusive: the venue checks the expiry when the request reaches its
 * engine and executes it in the same step, so the margin only covers clocks
 * (the simulator shares the machine's) and the look-up's own trip.
 */
export const EXPIRY_SETTLE_MARGIN_MS = 250;

export interface PaperOrderEntryOptions {
  venue: string;
  http: PaperHttp;
  stream: PaperStream;
  /** `http` sends every order over HTTP; `socket` on the socket while it takes orders. */
  orderEntry: 'socket' | 'http' | undefined;
  requestTimeoutMs: number;
}

/** An order request's answer: the status, the body and, when refused or lost, the error. */
export interface OrderOutcome {
  status: number;
  body: unknown;
  error?: VenueError;
}

/** Where the paper client's order requests go, and what a lost answer means for when they settle. */
export class PaperOrderEntry {
  constructor(private readonly options: PaperOrderEntryOptions) {}

  /**
   * Order entry: on the account's socket while it takes orders, else over
   * HTTP. A lost answer (timeout, connection gone under it, a 5xx) becomes a
   * VenueNetworkError whose `settlesByMs` is the request's expiry plus
   * EXPIRY_SETTLE_MARGIN_MS; one that provably never left (the socket closed
   * before it was written) carries `settlesByMs` = the time it failed, as
   * PaperStream sets it.
   */
  async call(
    message: OrderRequestMessage,
    http: { method: string; path: string; options: CallOptions },
  ): Promise<OrderOutcome> {
    const settlesByMs = (message.params.expires_at_ms ?? Date.now()) + EXPIRY_SETTLE_MARGIN_MS;
    const settled = (error: unknown): unknown =>
      error instanceof VenueNetworkError && error.settlesByMs === undefined
        ? new VenueNetworkError(
            this.options.venue,
            stripVenue(error.message, this.options.venue),
            error,
            settlesByMs,
          )
        : error;
    let outcome: OrderOutcome;
    try {
      if (this.options.orderEntry === 'http' || !this.options.stream.takesOrders) {
        outcome = await this.options.http.exchange(http.method, http.path, http.options);
      } else {
        const answer = await this.options.stream.request(
          message,
          http.options.timeoutMs ?? this.options.requestTimeoutMs,
        );
        outcome =
          answer.status >= 200 && answer.status < 300
            ? answer
            : {
                ...answer,
                error: this.options.http.errorOf(answer.status, answer.body as Partial<WireError>),
              };
      }
    } catch (error) {
      throw settled(error);
    }
    return outcome.error ? { ...outcome, error: settled(outcome.error) as VenueError } : outcome;
  }
}

/** VenueError prefixes its message with the venue; a re-thrown one must not say it twice. */
const stripVenue = (message: string, venue: string): string =>
  message.startsWith(`${venue}: `) ? message.slice(venue.length + 2) : message;

export function wireTarget(target: CancelTarget): WireOrderTarget {
  return 'orderId' in target
    ? { order_id: target.orderId }
    : { client_order_id: target.clientOrderId };
}

/*
 * The order requests' parameters are built as one literal each, never as a
 * spread with fields added: such an object is four to five times the size,
 * and these live as long as the venue takes to answer (docs/perf/worker.md).
 * A field left undefined is not sent (JSON drops it).
 */

export function wirePlacement(
  request: PlaceOrderRequest,
  type: OrderType,
  expiresAtMs?: number,
): WirePlaceOrder {
  return {
    symbol: request.symbol,
    side: request.side,
    type,
    price: request.price,
    size: request.size,
    client_order_id: request.clientOrderId,
    expires_at_ms: expiresAtMs,
    reduce_only: request.reduceOnly ? true : undefined,
  };
}

export function wireCancel(
  target: CancelTarget,
  expiresAtMs: number,
): WireOrderTarget & WireExpiry {
  return 'orderId' in target
    ? { order_id: target.orderId, expires_at_ms: expiresAtMs }
    : { client_order_id: target.clientOrderId, expires_at_ms: expiresAtMs };
}

export function wireReplace(request: ReplaceRequest, expiresAtMs: number): WireReplaceOrder {
  const { target } = request;
  const byId = 'orderId' in target;
  return {
    order_id: byId ? target.orderId : undefined,
    client_order_id: byId ? undefined : target.clientOrderId,
    expected_filled_size: request.expectedFilledSize,
    next: wirePlacement(request.next, 'post_only'),
    expires_at_ms: expiresAtMs,
  };
}
