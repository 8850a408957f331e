import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The paper venue protocol spoken between the simulator (apps/venue-sim) and
 * PaperVenueClient. Prices and sizes are decimal strings; field names are
 * snake_case. Documented in apps/venue-sim/README.md.
 */
export const PAPER_HEADERS = {
  apiKey: 'x-sts-api-key',
  wallet: 'x-sts-wallet',
  timestamp: 'x-sts-timestamp',
  signature: 'x-sts-signature',
} as const;

/** How far a signed request's timestamp may be from the venue's clock. */
export const SIGNATURE_WINDOW_MS = 30_000;

export interface PaperCredentials {
  apiKey: string;
  apiSecret: string;
  wallet: string;
}

/** HMAC-SHA256 (hex) over timestamp + METHOD + path-with-query + body. */
export function paperSignature(
  secret: string,
  timestampMs: number,
  method: string,
  pathWithQuery: string,
  body: string,
): string {
  return createHmac('sha256', secret)
    .update(`${timestampMs}${method.toUpperCase()}${pathWithQuery}${body}`)
    .digest('hex');
}

export function signedHeaders(
  credentials: PaperCredentials,
  method: string,
  pathWithQuery: string,
  body: string,
  nowMs: number = Date.now(),
): Record<string, string> {
  return {
    [PAPER_HEADERS.apiKey]: credentials.apiKey,
    [PAPER_HEADERS.wallet]: credentials.wallet,
    [PAPER_HEADERS.timestamp]: String(nowMs),
    [PAPER_HEADERS.signature]: paperSignature(
      credentials.apiSecret,
      nowMs,
      method,
      pathWithQuery,
      body,
    ),
  };
}

export function signatureMatches(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const given = Buffer.from(givenHex, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface WireMarket {
  symbol: string;
  base_asset: string;
  quote: string;
  /** The asset the venue margins the market in: its balance is the market's margin. */
  margin_asset: string;
  contract_multiplier: string;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional?: string;
  max_leverage?: number;
  isolated_only?: boolean;
  funding_interval_hours?: number;
  funding_rate?: string;
  volume_24h_usd?: string;
  open_interest_usd?: string;
  mark_price?: string;
}

export type WireOrderStatus = 'open' | 'partially_filled' | 'filled' | 'canceled' | 'rejected';

export interface WireOrder {
  order_id: string;
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'post_only' | 'ioc';
  price: string;
  size: string;
  filled_size: string;
  avg_price?: string;
  status: WireOrderStatus;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface WireFill {
  fill_id: string;
  order_id: string;
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  liquidity: 'maker' | 'taker';
  fee: string;
  order_fully_filled: boolean;
  ts_ms: number;
}

/**
 * One funding settlement of the account's position in one market
 * (`GET /venues/<v>/funding?since=<ms>`, oldest first).
 */
export interface WireFundingPayment {
  /** Unique per venue. */
  id: string;
  symbol: string;
  /** The settlement's time (the end of the funding interval). */
  ts_ms: number;
  /** The interval's rate (positive: longs pay shorts). */
  rate: string;
  /** The account's signed position then (positive long). */
  size: string;
  mark_price: string;
  /** Signed: positive received, negative paid. */
  amount: string;
  asset: string;
}

/**
 * Order requests (place, replace, cancel) may carry `expires_at_ms`: the
 * venue refuses one that reaches its matching engine after that time (400
 * `order_expired`, nothing recorded), as Hyperliquid's `expiresAfter` or
 * Binance's `recvWindow` do. A client whose answer was lost knows from it
 * when a look-up by client order id becomes conclusive.
 */
export interface WireExpiry {
  expires_at_ms?: number;
}

export interface WirePlaceOrder extends WireExpiry {
  symbol: string;
  side: 'buy' | 'sell';
  type: 'post_only' | 'ioc';
  price: string;
  size: string;
  client_order_id: string;
  /** Only reduces the account's position: capped to it, refused when there is none to reduce. */
  reduce_only?: boolean;
}

export interface WirePlaceResult {
  order: WireOrder;
  fills: WireFill[];
  duplicate: boolean;
}

/** Which order a cancel or replace acts on: one of the two ids. */
export interface WireOrderTarget {
  order_id?: string;
  client_order_id?: string;
}

/**
 * Cancel the target and, in the same instant on the venue, place `next`
 * (post-only, same market and side). `next` is placed only when the target
 * was still open and, if `expected_filled_size` is given, had filled exactly
 * that much: a fill the client has not seen yet must not be quoted over. One
 * request of the account's rate limit, like an amend on Hyperliquid or Lighter.
 */
export interface WireReplaceOrder extends WireOrderTarget, WireExpiry {
  expected_filled_size?: string;
  next: WirePlaceOrder;
}

export interface WireReplaceResult {
  canceled: { outcome: 'canceled' | 'not_open'; order: WireOrder };
  placed?: WirePlaceResult;
  /** Why `next` was refused after the target was canceled (e.g. post_only_would_cross). */
  place_error?: WireError;
}

export interface WireError {
  error: string;
  code: string;
  reason?: string;
  retry_after_ms?: number;
  order?: WireOrder;
}

export interface WirePosition {
  symbol: string;
  side: 'long' | 'short';
  size: string;
  entry_price: string;
  mark_price: string;
  unrealized_pnl: string;
  leverage: number;
  margin_mode: 'cross' | 'isolated';
}

export interface WireBalance {
  asset: string;
  total: string;
  available: string;
  margin_used: string;
}

/** [price, size]; size "0" removes the level. */
export type WireLevel = [string, string];

export type WireServerMessage =
  | {
      type: 'book_snapshot';
      symbol: string;
      seq: number;
      bids: WireLevel[];
      asks: WireLevel[];
      ts_ms: number;
    }
  | {
      type: 'book_delta';
      symbol: string;
      seq: number;
      bids: WireLevel[];
      asks: WireLevel[];
      ts_ms: number;
    }
  | { type: 'order'; seq: number; order: WireOrder }
  | { type: 'fill'; seq: number; fill: WireFill }
  | { type: 'subscribed'; channel: 'book' | 'account'; symbol?: string }
  | { type: 'unsubscribed'; channel: 'book' | 'account'; symbol?: string }
  | { type: 'pong' }
  | { type: 'error'; code: string; error: string }
  /** The answer to an order request sent on the socket: the HTTP status and body it would have had. */
  | { type: 'response'; id: string; status: number; body: unknown };

/**
 * Order entry on the signed socket (the account is the one that signed the
 * handshake): the same operations and answers as the HTTP endpoints, without
 * a request per order. `id` is the client's, echoed in the `response`.
 */
export type WireOrderRequest =
  | { op: 'place'; id: string; params: WirePlaceOrder }
  | { op: 'cancel'; id: string; params: WireOrderTarget & WireExpiry }
  | { op: 'replace'; id: string; params: WireReplaceOrder };

export type WireClientMessage =
  | { op: 'subscribe'; channel: 'book'; symbol: string }
  | { op: 'subscribe'; channel: 'account' }
  | { op: 'unsubscribe'; channel: 'book'; symbol: string }
  | { op: 'unsubscribe'; channel: 'account' }
  | { op: 'ping' }
  | WireOrderRequest;
