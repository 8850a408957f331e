import type { PaperCredentials, WirePlaceOrder } from '@sts/venues';
import type { CancelCommand } from '../engine/types';
import { HttpFailure } from './http-kit';

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const CLIENT_ORDER_ID = /^[A-Za-z0-9_:.-]{1,64}$/;

const invalid = (message: string): HttpFailure => new HttpFailure(400, 'invalid_request', message);

/** Validates a placement body; anything else in it is refused, as strict venues do. */
export function parsePlaceOrder(body: Record<string, unknown>): WirePlaceOrder {
  const allowed = new Set(['symbol', 'side', 'type', 'price', 'size', 'client_order_id']);
  const extra = Object.keys(body).filter((key) => !allowed.has(key));
  if (extra.length > 0) throw invalid(`unknown fields: ${extra.join(', ')}`);
  const { symbol, side, type, price, size, client_order_id: clientOrderId } = body;
  if (typeof symbol !== 'string' || symbol.length === 0) throw invalid('symbol is required');
  if (side !== 'buy' && side !== 'sell') throw invalid('side must be buy or sell');
  if (type !== 'post_only' && type !== 'ioc') throw invalid('type must be post_only or ioc');
  if (typeof price !== 'string' || !DECIMAL.test(price))
    throw invalid('price must be a decimal string');
  if (typeof size !== 'string' || !DECIMAL.test(size))
    throw invalid('size must be a decimal string');
  if (typeof clientOrderId !== 'string' || !CLIENT_ORDER_ID.test(clientOrderId)) {
    throw invalid('client_order_id must be 1-64 characters of A-Z a-z 0-9 _ : . -');
  }
  return { symbol, side, type, price, size, client_order_id: clientOrderId };
}

/** Which order to act on: `order_id` or `client_order_id` (strings in a body or a query). */
export function parseOrderTarget(fields: Record<string, unknown>): CancelCommand {
  const { order_id: orderId, client_order_id: clientOrderId } = fields;
  if (typeof orderId === 'string' && orderId.length > 0) return { orderId };
  if (typeof clientOrderId === 'string' && clientOrderId.length > 0) return { clientOrderId };
  throw invalid('order_id or client_order_id is required');
}

export interface ReplaceCommand {
  target: CancelCommand;
  next: WirePlaceOrder;
  expectedFilledSize?: string;
}

/** A replace body: the target, the order that replaces it, and the fill the client expects. */
export function parseReplace(body: Record<string, unknown>): ReplaceCommand {
  const allowed = new Set(['order_id', 'client_order_id', 'expected_filled_size', 'next']);
  const extra = Object.keys(body).filter((key) => !allowed.has(key));
  if (extra.length > 0) throw invalid(`unknown fields: ${extra.join(', ')}`);
  const { next, expected_filled_size: expected } = body;
  if (!next || typeof next !== 'object' || Array.isArray(next))
    throw invalid('next must be an order object');
  if (expected !== undefined && (typeof expected !== 'string' || !DECIMAL.test(expected)))
    throw invalid('expected_filled_size must be a decimal string');
  return {
    target: parseOrderTarget(body),
    next: parsePlaceOrder(next as Record<string, unknown>),
    ...(expected !== undefined ? { expectedFilledSize: expected } : {}),
  };
}

export function parseCredentials(body: Record<string, unknown>): PaperCredentials {
  const { api_key: apiKey, api_secret: apiSecret, wallet } = body;
  if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || typeof wallet !== 'string') {
    throw invalid('api_key, api_secret and wallet are required strings');
  }
  return { apiKey, apiSecret, wallet };
}
