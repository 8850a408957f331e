import type { PaperCredentials, WirePlaceOrder } from '@sts/venues';
import type { OrderKind, OrderOp } from '../control/faults';
import type { CancelCommand } from '../engine/types';
import { HttpFailure } from './http-kit';

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const CLIENT_ORDER_ID = /^[A-Za-z0-9_:.-]{1,64}$/;

const invalid = (message: string): HttpFailure => new HttpFailure(400, 'invalid_request', message);

/** Validates a placement body; anything else in it is refused, as strict venues do. */
export function parsePlaceOrder(body: Record<string, unknown>): WirePlaceOrder {
  const allowed = new Set([
    'symbol',
    'side',
    'type',
    'price',
    'size',
    'client_order_id',
    'expires_at_ms',
    'reduce_only',
  ]);
  const extra = Object.keys(body).filter((key) => !allowed.has(key));
  if (extra.length > 0) {
    throw invalid(`unknown fields: ${extra.join(', ')}`);
  }
  const { symbol, side, type, price, size, client_order_id: clientOrderId } = body;
  const { reduce_only: reduceOnly } = body;
  if (typeof symbol !== 'string' || symbol.length === 0) {
    throw invalid('symbol is required');
  }
  if (side !== 'buy' && side !== 'sell') {
    throw invalid('side must be buy or sell');
  }
  if (type !== 'post_only' && type !== 'ioc') {
    throw invalid('type must be post_only or ioc');
  }
  if (typeof price !== 'string' || !DECIMAL.test(price)) {
    throw invalid('price must be a decimal string');
  }
  if (typeof size !== 'string' || !DECIMAL.test(size)) {
    throw invalid('size must be a decimal string');
  }
  if (typeof clientOrderId !== 'string' || !CLIENT_ORDER_ID.test(clientOrderId)) {
    throw invalid('client_order_id must be 1-64 characters of A-Z a-z 0-9 _ : . -');
  }
  if (reduceOnly !== undefined && typeof reduceOnly !== 'boolean') {
    throw invalid('reduce_only must be a boolean');
  }
  return {
    symbol,
    side,
    type,
    price,
    size,
    client_order_id: clientOrderId,
    ...(reduceOnly ? { reduce_only: true } : {}),
  };
}

/** Which order to act on: `order_id` or `client_order_id` (strings in a body or a query). */
export function parseOrderTarget(fields: Record<string, unknown>): CancelCommand {
  const { order_id: orderId, client_order_id: clientOrderId } = fields;
  if (typeof orderId === 'string' && orderId.length > 0) {
    return { orderId };
  }
  if (typeof clientOrderId === 'string' && clientOrderId.length > 0) {
    return { clientOrderId };
  }
  throw invalid('order_id or client_order_id is required');
}

export interface ReplaceCommand {
  target: CancelCommand;
  next: WirePlaceOrder;
  expectedFilledSize?: string;
}

/** A replace body: the target, the order that replaces it, and the fill the client expects. */
export function parseReplace(body: Record<string, unknown>): ReplaceCommand {
  const allowed = new Set([
    'order_id',
    'client_order_id',
    'expected_filled_size',
    'next',
    'expires_at_ms',
  ]);
  const extra = Object.keys(body).filter((key) => !allowed.has(key));
  if (extra.length > 0) {
    throw invalid(`unknown fields: ${extra.join(', ')}`);
  }
  const { next, expected_filled_size: expected } = body;
  if (!next || typeof next !== 'object' || Array.isArray(next)) {
    throw invalid('next must be an order object');
  }
  if (expected !== undefined && (typeof expected !== 'string' || !DECIMAL.test(expected))) {
    throw invalid('expected_filled_size must be a decimal string');
  }
  return {
    target: parseOrderTarget(body),
    next: parsePlaceOrder(next as Record<string, unknown>),
    ...(expected !== undefined ? { expectedFilledSize: expected } : {}),
  };
}

/** What the venue's faults and its expiry check read of an order request before the engine. */
export interface OrderFacts {
  op: OrderOp;
  orderType?: OrderKind;
  /** Epoch ms after which the venue refuses the request unexecuted (absent: no expiry). */
  expiresAtMs?: number;
}

/**
 * The facts of an order request (place body, replace body, cancel fields:
 * the body on the socket, the query over HTTP). Only `expires_at_ms` is
 * checked here; the rest is validated when the engine takes the request.
 */
export function orderFacts(op: OrderOp, fields: Record<string, unknown>): OrderFacts {
  // The placement a request makes: the body itself, or a replace's `next`.
  const placement: Record<string, unknown> =
    op === 'place' ? fields : op === 'replace' ? objectOrEmpty(fields['next']) : {};
  const type = placement['type'];
  // A replace's expiry is the request's; one given on `next` is taken as the same.
  const expiresAtMs = parseExpiry(fields['expires_at_ms'] ?? placement['expires_at_ms']);
  return {
    op,
    ...(type === 'post_only' || type === 'ioc' ? { orderType: type } : {}),
    ...(expiresAtMs !== undefined ? { expiresAtMs } : {}),
  };
}

const objectOrEmpty = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** Epoch milliseconds, a number in a body or digits in a query string. */
function parseExpiry(value: unknown): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const ms = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    throw invalid('expires_at_ms must be epoch milliseconds');
  }
  return ms;
}

export function parseCredentials(body: Record<string, unknown>): PaperCredentials {
  const { api_key: apiKey, api_secret: apiSecret, wallet } = body;
  if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || typeof wallet !== 'string') {
    throw invalid('api_key, api_secret and wallet are required strings');
  }
  return { apiKey, apiSecret, wallet };
}
