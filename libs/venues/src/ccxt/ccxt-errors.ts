import { settlesBy } from '@sts/domain';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueError,
  VenueNetworkError,
} from '../errors';

/** Names of an error's classes, most specific first (ccxt errors keep their class names). */
function classNames(error: unknown): Set<string> {
  const names = new Set<string>();
  let prototype: unknown =
    error !== null && typeof error === 'object' ? Object.getPrototypeOf(error) : undefined;
  while (prototype && prototype !== Object.prototype) {
    const name = (prototype as { constructor?: { name?: string } }).constructor?.name;
    if (name) {
      names.add(name);
    }
    prototype = Object.getPrototypeOf(prototype);
  }
  return names;
}

const POST_ONLY_TEXT =
  /post[ -]?only|would (have )?(immediately )?(match|cross|take)|immediately fillable/i;
const DUPLICATE_TEXT = /duplicate|already exists/i;
/** Lighter's 21739 "not enough margin to create the order" (a bare InvalidOrder in ccxt 4.5.84). */
const MARGIN_TEXT = /not enough margin/i;
/**
 * An order not there to cancel: Paradex's ORDER_IS_CLOSED, Extended's "Order
 * not found." (both bare refusals in ccxt 4.5.84), Lighter's 21600 "given
 * order is not an active limit order".
 */
const NOT_OPEN_TEXT =
  /ORDER_IS_CLOSED|ORDER_IS_NOT_OPEN|"Order not found\."|not an active (limit )?order/;
/** ccxt does not say how long to wait; one second is the usual window of a per-second limit. */
const DEFAULT_RETRY_AFTER_MS = 1_000;
/**
 * Hyperliquid's address-based limit on actions: `{status: 'err', response:
 * 'Too many cumulative requests sent (n > cap) for cumulative volume traded
 * $v. …'}` (the text ccxt 4.5.84 maps to RateLimitExceeded). "When rate
 * limited, an address is allowed one request every 10 seconds"
 * (hyperliquid-docs, API > Rate limits and user limits): sooner is refused.
 */
const ADDRESS_LIMIT_TEXT = /Too many cumulative requests sent/;
const ADDRESS_LIMIT_RETRY_AFTER_MS = 10_000;
/**
 * Lighter's volume quota spent (23000 "Too Many Requests!:  Not enough volume
 * quota", RateLimitExceeded in ccxt): one transaction goes free every 15 s
 * (apidocs.lighter.xyz "Volume Quota"), so a retry sooner is refused.
 */
const VOLUME_QUOTA_TEXT = /Not enough volume quota/;
const VOLUME_QUOTA_RETRY_AFTER_MS = 15_000;

/**
 * A placement the venue refused for its timestamp or nonce (ccxt's
 * InvalidNonce: Aster's -1021, "outside of the recvWindow"): checked before
 * anything executes, so the order was never placed, though ccxt files
 * InvalidNonce under NetworkError. Null for any other error.
 */
export function staleRequestRefusal(error: unknown, venue: string): OrderRejectedError | null {
  if (!classNames(error).has('InvalidNonce')) {
    return null;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new OrderRejectedError(venue, 'stale_request', message, error);
}

/**
 * ccxt's exception hierarchy onto the VenueClient's typed errors. Checked by
 * class name rather than `instanceof`, so this module does not load ccxt.
 */
export function toVenueError(error: unknown, venue: string): VenueError {
  if (error instanceof VenueError) {
    return error;
  }
  const names = classNames(error);
  const message = error instanceof Error ? error.message : String(error);
  // ccxt leaves some venues' refusals as a bare ExchangeError (Aster's -5022
  // post-only and -4116 duplicate client order id): the text decides then.
  const refusal = names.has('InvalidOrder') || names.has('ExchangeError');
  if (names.has('OrderImmediatelyFillable') || (refusal && POST_ONLY_TEXT.test(message))) {
    return new PostOnlyWouldCrossError(venue, message, error);
  }
  if (names.has('OrderNotFound') || (refusal && NOT_OPEN_TEXT.test(message))) {
    return new UnknownOrderError(venue, message, error);
  }
  if (ADDRESS_LIMIT_TEXT.test(message)) {
    return new RateLimitedError(venue, ADDRESS_LIMIT_RETRY_AFTER_MS, error);
  }
  if (VOLUME_QUOTA_TEXT.test(message)) {
    return new RateLimitedError(venue, VOLUME_QUOTA_RETRY_AFTER_MS, error);
  }
  if (names.has('RateLimitExceeded') || names.has('DDoSProtection')) {
    return new RateLimitedError(venue, DEFAULT_RETRY_AFTER_MS, error);
  }
  if (names.has('AuthenticationError')) {
    return new VenueAuthError(venue, message, error);
  }
  if (names.has('DuplicateOrderId') || (refusal && DUPLICATE_TEXT.test(message))) {
    return new OrderRejectedError(venue, 'duplicate_client_order_id', message, error);
  }
  if (names.has('InsufficientFunds') || (refusal && MARGIN_TEXT.test(message))) {
    return new OrderRejectedError(venue, 'insufficient_margin', message, error);
  }
  if (names.has('OnMaintenance')) {
    return new OrderRejectedError(venue, 'venue_halted', message, error);
  }
  if (names.has('NetworkError')) {
    return new VenueNetworkError(venue, message, error);
  }
  if (names.has('InvalidOrder')) {
    return new OrderRejectedError(venue, 'invalid_order', message, error);
  }
  if (names.has('ExchangeError')) {
    return new OrderRejectedError(venue, 'exchange_error', message, error);
  }
  return new VenueNetworkError(venue, message, error);
}

/**
 * The venue's own words in a ccxt error message (`<exchange id> <body>`):
 * Hyperliquid's `response`, a Binance-style `msg`, else the body as it came.
 */
export function venueAnswer(message: string, venue: string): string {
  const body = message.startsWith(`${venue} `) ? message.slice(venue.length + 1) : message;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const { response, msg } = parsed as { response?: unknown; msg?: unknown };
      if (typeof response === 'string') {
        return response;
      }
      if (typeof msg === 'string') {
        return msg;
      }
    }
  } catch {
    // not JSON: the text is the answer
  }
  return body;
}

/** Runs one ccxt call, its failure mapped to a VenueError. */
export async function venueCall<T>(venue: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toVenueError(error, venue);
  }
}

/**
 * An order request whose answer was lost: after `settlesByMs` it has landed
 * or never will. Where the request carried an expiry the venue enforces
 * (order-expiry.ts) that is its send time, its lifetime and a margin;
 * elsewhere ccxt sends the venue's orders with no expiry, so nothing bounds
 * when it may still take effect but the fallback (`UNBOUNDED_REQUEST_SETTLE_MS`).
 * Until then a look-up that finds nothing proves nothing.
 */
export function unsettled(
  venue: string,
  error: VenueNetworkError,
  settlesByMs?: number,
): VenueNetworkError {
  if (error.settlesByMs !== undefined) {
    return error;
  }
  return new VenueNetworkError(
    venue,
    error.detail,
    error.cause,
    settlesBy(settlesByMs, Date.now()),
  );
}
