import Big from 'big.js';
import { HttpFailure } from '../../api/http-kit';
import { ParadexError, paradexTyped, type ParadexAuth } from './paradex-auth';
import type { ParadexInstruction } from './paradex-order-views';
import { feltOf } from './paradex-signing';

/** Paradex scales order sizes and prices to 8 decimals in what it signs. */
const SIGNED_SCALE = new Big(100_000_000);
const CLIENT_ID = /^[\x21-\x7e]{1,64}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
/**
 * Paradex refuses an order once `now > signature_timestamp + recv_window`,
 * 5 minutes when the order sends none (docs "Receive Window").
 */
const DEFAULT_RECV_WINDOW_MS = 5 * 60_000;
/** How far ahead of the venue's clock a signature's timestamp may be (assumed). */
const SIGNATURE_MAX_LEAD_MS = 5 * 60_000;

const ORDER_FIELDS = ['timestamp', 'market', 'side', 'orderType', 'size', 'price'].map((name) => ({
  name,
  type: 'felt',
}));

/** An order request as the venue reads it. */
export interface ParsedOrder {
  market: string;
  side: 'BUY' | 'SELL';
  type: string;
  size: string;
  price: string;
  instruction: ParadexInstruction;
  clientId: string;
  /** `flags: ["REDUCE_ONLY"]`: it may only reduce the position (an IOC here). */
  reduceOnly: boolean;
  /** When the venue stops taking it: its signature's timestamp plus its `recv_window`. */
  expiresAtMs: number;
}

/** An order request's body, checked field by field (`POST /v1/orders`). */
export function parseOrder(body: Record<string, unknown>): ParsedOrder {
  const { market, side, type, size, price, instruction, client_id: clientId } = body;
  if (typeof market !== 'string') {
    throw invalid('market');
  }
  if (side !== 'BUY' && side !== 'SELL') {
    throw invalid('side');
  }
  if (type !== 'LIMIT') {
    throw new ParadexError(400, 'VALIDATION_ERROR', 'the simulated venue trades LIMIT orders only');
  }
  if (typeof size !== 'string' || !DECIMAL.test(size) || new Big(size).lte(0)) {
    throw invalid('size');
  }
  if (typeof price !== 'string' || !DECIMAL.test(price) || new Big(price).lte(0)) {
    throw invalid('price');
  }
  const chosen = instruction ?? 'GTC';
  if (chosen !== 'GTC' && chosen !== 'POST_ONLY' && chosen !== 'IOC') {
    throw invalid('instruction');
  }
  if (clientId !== undefined && (typeof clientId !== 'string' || !CLIENT_ID.test(clientId))) {
    throw invalid('client_id');
  }
  const reduceOnly = reduceOnlyFlag(body['flags']);
  if (reduceOnly && chosen !== 'IOC') {
    // Paradex rests reduce-only orders; the engine reduces with an IOC only.
    throw new ParadexError(
      400,
      'VALIDATION_ERROR',
      'the simulated venue takes REDUCE_ONLY on IOC orders only',
    );
  }
  return {
    market,
    side: side as 'BUY' | 'SELL',
    type: type as string,
    size,
    price,
    instruction: chosen as ParadexInstruction,
    clientId: (clientId as string | undefined) ?? '',
    reduceOnly,
    expiresAtMs: signatureTimestamp(body) + recvWindow(body),
  };
}

/**
 * `flags`: "Order flags, allow flag: REDUCE_ONLY" (docs "Create order"; paradex-py
 * `OrderFlag`). Any other word is refused. Flags are not part of the signed
 * `Order` (paradex-py message/order.py, ccxt signOrderRequest): the signature
 * is the same with or without them.
 */
function reduceOnlyFlag(flags: unknown): boolean {
  if (flags === undefined || flags === null) {
    return false;
  }
  if (!Array.isArray(flags) || flags.some((flag) => flag !== 'REDUCE_ONLY')) {
    throw invalid('flags');
  }
  return flags.length > 0;
}

function signatureTimestamp(body: Record<string, unknown>): number {
  const timestamp = body['signature_timestamp'];
  if (!Number.isSafeInteger(timestamp)) {
    throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid signature_timestamp');
  }
  if ((timestamp as number) > Date.now() + SIGNATURE_MAX_LEAD_MS) {
    throw new ParadexError(400, 'INVALID_TIMESTAMP', 'signature timestamp is in the future');
  }
  return timestamp as number;
}

function recvWindow(body: Record<string, unknown>): number {
  const window = body['recv_window'];
  if (window === undefined) {
    return DEFAULT_RECV_WINDOW_MS;
  }
  if (!Number.isSafeInteger(window) || (window as number) <= 0) {
    throw invalid('recv_window');
  }
  return window as number;
}

/**
 * The order's StarkNet signature (typed data `Order`: timestamp, market,
 * side 1/2, type, size and price × 10⁸; no flags), recent and by the
 * account's stark key.
 */
export function checkOrderSignature(
  auth: ParadexAuth,
  account: string,
  order: ParsedOrder,
  body: Record<string, unknown>,
): void {
  const timestamp = signatureTimestamp(body);
  const scaled = (value: string): string => {
    const text = new Big(value).times(SIGNED_SCALE);
    if (!text.eq(text.round(0))) {
      throw invalid('precision');
    }
    return text.toFixed(0);
  };
  const typed = paradexTyped('Order', ORDER_FIELDS, {
    timestamp,
    market: `0x${feltOf(order.market).toString(16)}`,
    side: order.side === 'BUY' ? '1' : '2',
    orderType: `0x${feltOf(order.type).toString(16)}`,
    size: scaled(order.size),
    price: scaled(order.price),
  });
  const starkKey = auth.starkKeyOf(account);
  if (!starkKey) {
    throw new ParadexError(400, 'NOT_ONBOARDED', 'User has never called /onboarding endpoint');
  }
  auth.checkSignature(body['signature'], typed, account, starkKey, 'INVALID_ORDER_SIGNATURE');
}

/**
 * An order that reached the venue past its receive window, in Paradex's
 * words (the documents say only "reject the order": the code is assumed).
 */
export function pastReceiveWindow(error: unknown, expiresAtMs: number): unknown {
  if (error instanceof HttpFailure && error.code === 'order_expired') {
    return new ParadexError(
      400,
      'INVALID_TIMESTAMP',
      `order received after signature_timestamp + recv_window (${expiresAtMs})`,
    );
  }
  return error;
}

const invalid = (field: string): ParadexError =>
  new ParadexError(400, 'VALIDATION_ERROR', `invalid ${field}`);

/** An engine refusal of a placement in Paradex's words (the request's own refusals pass). */
export function refusalOf(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const reason = (error as { reason?: unknown }).reason;
  if (code === 'duplicate_client_order_id') {
    return new ParadexError(400, 'DUPLICATED_CLIENT_ID', 'duplicated client id');
  }
  if (code === 'unknown_market') {
    return new ParadexError(400, 'MARKET_NOT_FOUND', 'market not found');
  }
  if (code === 'invalid_order') {
    if (reason === 'invalid_tick') {
      return new ParadexError(
        400,
        'INVALID_PRICE_PRECISION',
        'price is not a multiple of the tick size',
      );
    }
    if (reason === 'invalid_size' || reason === 'below_min_size') {
      return new ParadexError(400, 'INVALID_ORDER_SIZE', 'invalid order size');
    }
    if (reason === 'below_min_notional') {
      return new ParadexError(400, 'VALIDATION_ERROR', 'order value is below the minimum notional');
    }
    return new ParadexError(400, 'VALIDATION_ERROR', 'invalid order');
  }
  return error;
}
