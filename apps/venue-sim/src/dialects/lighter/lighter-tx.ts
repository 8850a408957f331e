import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import type { ReduceOnlyMinimums } from '../../engine/types';
import { LighterError, MAX_48_BITS } from './lighter-accounts';
import { MAX_CLIENT_ORDER_INDEX, MAX_ORDER_INDEX } from './lighter-indices';
import { decimalsOf } from './lighter-markets';
import { parseTxAttributes } from './lighter-tx-attributes';

/** Lighter's transaction types (the `tx_type` form field) the simulator executes. */
export const TX_TYPE = { createOrder: 14, cancelOrder: 15 } as const;

/** Order types and times in force as a signed order carries them. */
export const ORDER_TYPE_LIMIT = 0;
export const TIME_IN_FORCE = { ioc: 0, gtt: 1, postOnly: 2 } as const;
/** How far ahead a resting order's expiry may be (lighter-go constants.go). */
const ORDER_EXPIRY_MS = { min: 5 * 60_000, max: 30 * 86_400_000 } as const;

/** What every signed transaction carries besides its own fields. */
export interface SignedTx {
  accountIndex: number;
  apiKeyIndex: number;
  expiredAt: number;
  nonce: number;
  sig: string;
  /** The `SkipNonce` attribute: the nonce may skip ahead of the key's next one. */
  skipNonce: boolean;
  /** The `CancelAllMarketIndex` attribute (type 5), when set. */
  cancelAllMarketIndex?: number;
}

export interface CreateOrderTx extends SignedTx {
  marketIndex: number;
  clientOrderIndex: number;
  baseAmount: number;
  price: number;
  isAsk: boolean;
  timeInForce: number;
  /** `ReduceOnly` 1: the order may only reduce the position. */
  reduceOnly: boolean;
  orderExpiry: number;
}

export interface CancelOrderTx extends SignedTx {
  marketIndex: number;
  index: number;
}

/** The two form fields of `POST /api/v1/sendTx` (multipart/form-data, as ccxt sends it). */
export async function readSendTx(
  rawBody: string,
  contentType: string | undefined,
): Promise<{ txType: number; txInfo: Record<string, unknown> }> {
  let form: FormData;
  try {
    form = await new Response(rawBody, {
      headers: { 'content-type': contentType ?? '' },
    }).formData();
  } catch {
    throw new LighterError(400, 21501, 'invalid tx info');
  }
  const txType = Number(form.get('tx_type'));
  const text = form.get('tx_info');
  let txInfo: unknown;
  try {
    txInfo = JSON.parse(typeof text === 'string' ? text : '');
  } catch {
    throw new LighterError(400, 21501, 'invalid tx info');
  }
  if (!txInfo || typeof txInfo !== 'object' || Array.isArray(txInfo)) {
    throw new LighterError(400, 21501, 'invalid tx info');
  }
  return { txType, txInfo: txInfo as Record<string, unknown> };
}

const int = (
  info: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  code = 21501,
  message = `invalid tx info: ${field}`,
): number => {
  const value = info[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new LighterError(400, code, message);
  }
  return value;
};

/** Perpetual markets are 0 to 254, spot markets 2048 to 4094 (constants.go). */
function marketIndex(info: Record<string, unknown>): number {
  const index = int(info, 'MarketIndex', 0, 4094, 21602, 'invalid market index');
  if (index > 254 && index < 2048) {
    throw new LighterError(400, 21602, 'invalid market index');
  }
  return index;
}

export function signed(info: Record<string, unknown>): SignedTx {
  const sig = info['Sig'];
  // Lighter's signature: 80 bytes (Schnorr over ECgFp5), base64. Its form is
  // checked; no verifier of the scheme is available to the simulator.
  if (typeof sig !== 'string' || !/^[A-Za-z0-9+/]{106}[A-Za-z0-9+/=]{2}$/.test(sig)) {
    throw new LighterError(400, 21120, 'invalid signature');
  }
  const expiredAt = int(info, 'ExpiredAt', 0, MAX_48_BITS);
  if (expiredAt < Date.now()) {
    // Lighter does not execute a transaction past its ExpiredAt; the
    // refusal's code and words are the simulator's (none is published).
    throw new LighterError(400, 21501, 'invalid tx info: transaction expired');
  }
  const attributes = parseTxAttributes(info['L2TxAttributes']);
  if (attributes.integratorAccountIndex !== 0) {
    throw new LighterError(400, 21146, 'the simulated venue has no integrators');
  }
  return {
    accountIndex: int(info, 'AccountIndex', 0, MAX_48_BITS - 1),
    apiKeyIndex: int(info, 'ApiKeyIndex', 0, 254),
    expiredAt,
    nonce: int(info, 'Nonce', 0, MAX_48_BITS),
    sig,
    skipNonce: attributes.skipNonce,
    ...(attributes.cancelAllMarketIndex !== undefined
      ? { cancelAllMarketIndex: attributes.cancelAllMarketIndex }
      : {}),
  };
}

/**
 * An order's expiry as the signer's `Validate` and Lighter's checklist have
 * it: an IOC carries none (0), any other order a time in milliseconds, 5
 * minutes to 30 days ahead (`MinOrderExpiryPeriod`, `MaxOrderExpiryPeriod`).
 */
function orderExpiry(info: Record<string, unknown>, timeInForce: number): number {
  const expiry = int(info, 'OrderExpiry', 0, Number.MAX_SAFE_INTEGER, 21711, 'invalid expiry');
  if (timeInForce === TIME_IN_FORCE.ioc) {
    if (expiry !== 0) {
      throw new LighterError(400, 21711, 'invalid expiry');
    }
    return expiry;
  }
  const ahead = expiry - Date.now();
  if (expiry === 0 || ahead < ORDER_EXPIRY_MS.min || ahead > ORDER_EXPIRY_MS.max) {
    throw new LighterError(400, 21711, 'invalid expiry');
  }
  return expiry;
}

/**
 * A create-order transaction's fields, as Lighter's signer lays them out.
 * An integrator (builder) is refused: the simulated venue has none, and the
 * service must never send one.
 */
export function parseCreateOrder(info: Record<string, unknown>): CreateOrderTx {
  const base = signed(info);
  const type = int(info, 'Type', 0, 6, 21704, 'invalid OrderType');
  if (type !== ORDER_TYPE_LIMIT) {
    throw new LighterError(400, 21710, 'unsupported order type');
  }
  // lighter-go create_order.go Validate: ReduceOnly is 0 or 1 (OrderReduceOnlyInvalid).
  const reduceOnly = int(info, 'ReduceOnly', 0, 1, 21740, 'invalid reduce only mode') === 1;
  if (int(info, 'TriggerPrice', 0, 2 ** 32 - 1) !== 0) {
    throw new LighterError(400, 21729, 'invalid order trigger price');
  }
  const timeInForce = int(info, 'TimeInForce', 0, 2, 21705, 'invalid OrderTimeInForce');
  return {
    ...base,
    marketIndex: marketIndex(info),
    clientOrderIndex: int(
      info,
      'ClientOrderIndex',
      0,
      MAX_CLIENT_ORDER_INDEX,
      21727,
      'invalid client order index',
    ),
    baseAmount: int(info, 'BaseAmount', 1, MAX_48_BITS, 21701, 'invalid base amount'),
    price: int(info, 'Price', 1, 2 ** 32 - 1, 21702, 'invalid price'),
    isAsk: int(info, 'IsAsk', 0, 1, 21703, 'invalid isAsk') === 1,
    timeInForce,
    reduceOnly,
    orderExpiry: orderExpiry(info, timeInForce),
  };
}

/** A cancel names the order by its order index (2^48 and above) or its client order index (below). */
export function parseCancelOrder(info: Record<string, unknown>): CancelOrderTx {
  return {
    ...signed(info),
    marketIndex: marketIndex(info),
    index: int(info, 'Index', 1, MAX_ORDER_INDEX, 21700, 'invalid order index'),
  };
}

/**
 * The engine's placement of a create-order transaction; a reduce-only one
 * spared the minimums `reduceOnlyMinimums` names (reading `reduce_only_min_amounts`).
 */
export function enginePlacement(
  market: MarketState,
  tx: CreateOrderTx,
  type: 'ioc' | 'post_only',
  clientOrderId: string,
  reduceOnlyMinimums: ReduceOnlyMinimums,
) {
  const price = new Big(tx.price).div(new Big(10).pow(decimalsOf(market.spec.tickSize)));
  const size = new Big(tx.baseAmount).div(new Big(10).pow(decimalsOf(market.spec.lotSize)));
  return {
    symbol: market.spec.symbol,
    side: tx.isAsk ? ('sell' as const) : ('buy' as const),
    type,
    price: price.toFixed(),
    size: size.toFixed(),
    clientOrderId,
    ...(tx.reduceOnly ? { reduceOnly: true, reduceOnlyMinimums } : {}),
  };
}
