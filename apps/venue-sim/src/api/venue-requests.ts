import type { PaperCredentials, WirePlaceOrder } from '@sts/venues';
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

export function parseCredentials(body: Record<string, unknown>): PaperCredentials {
  const { api_key: apiKey, api_secret: apiSecret, wallet } = body;
  if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || typeof wallet !== 'string') {
    throw invalid('api_key, api_secret and wallet are required strings');
  }
  return { apiKey, apiSecret, wallet };
}
