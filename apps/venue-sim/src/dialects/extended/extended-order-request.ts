import Big from 'big.js';
import { ExtendedError } from './extended-accounts';
import type { ExtendedTif } from './extended-order-views';

const DECIMAL = /^\d+(\.\d+)?$/;
const EXTERNAL_ID = /^[\x21-\x7e]{1,128}$/;

/** An order request's body, checked field by field (`POST /api/v1/user/order`). */
export interface ParsedOrder {
  externalId: string;
  market: string;
  side: 'BUY' | 'SELL';
  qty: string;
  price: string;
  tif: ExtendedTif;
  postOnly: boolean;
  /** `reduceOnly: true`: it may only reduce the position (an IOC here). */
  reduceOnly: boolean;
  fee: string;
  nonce: string;
  expiryEpochMillis: number;
  settlement: { r: bigint; s: bigint; starkKey: string; collateralPosition: string };
}

export function parseOrder(body: Record<string, unknown>): ParsedOrder {
  const invalid = (): ExtendedError => new ExtendedError(400, 1133, 'Invalid order parameters.');
  const { id, market, type, side, qty, price, timeInForce, fee, nonce, postOnly, reduceOnly } =
    body;
  if (typeof id !== 'string' || !EXTERNAL_ID.test(id)) {
    throw invalid();
  }
  if (typeof market !== 'string') {
    throw invalid();
  }
  if (type !== 'LIMIT') {
    throw new ExtendedError(400, 1132, 'Order type is not allowed.');
  }
  if (side !== 'BUY' && side !== 'SELL') {
    throw invalid();
  }
  if (typeof qty !== 'string' || !DECIMAL.test(qty) || new Big(qty).lte(0)) {
    throw invalid();
  }
  if (typeof price !== 'string' || !DECIMAL.test(price) || new Big(price).lte(0)) {
    throw new ExtendedError(400, 1141, 'Invalid price value.');
  }
  if (timeInForce !== 'GTT' && timeInForce !== 'IOC') {
    throw invalid();
  }
  if (typeof fee !== 'string' || !DECIMAL.test(fee)) {
    throw new ExtendedError(400, 1128, 'Trading fees are invalid.');
  }
  if (typeof nonce !== 'string' || !/^\d{1,19}$/.test(nonce)) {
    throw invalid();
  }
  if (reduceOnly !== undefined && typeof reduceOnly !== 'boolean') {
    throw invalid();
  }
  if (reduceOnly === true && (timeInForce !== 'IOC' || postOnly === true)) {
    // Extended rests reduce-only orders; the engine reduces with an IOC only.
    throw new ExtendedError(400, 1133, 'the simulated venue takes reduce-only IOC orders only.');
  }
  if (body['builderId'] !== undefined || body['builderFee'] !== undefined) {
    throw new ExtendedError(400, 1133, 'the simulated venue has no builders.');
  }
  const expiry = body['expiryEpochMillis'];
  if (!Number.isSafeInteger(expiry)) {
    throw invalid();
  }
  const settlement = parseSettlement(body['settlement']);
  return {
    externalId: id,
    market,
    side,
    qty,
    price,
    tif: timeInForce,
    postOnly: postOnly === true,
    reduceOnly: reduceOnly === true,
    fee,
    nonce,
    expiryEpochMillis: expiry as number,
    settlement,
  };
}

/** The order's StarkEx settlement: its signature (r, s), the signer's stark key and vault. */
function parseSettlement(value: unknown): ParsedOrder['settlement'] {
  const settlement = value as Record<string, unknown> | undefined;
  const signature = settlement?.['signature'] as Record<string, unknown> | undefined;
  const r = signature?.['r'];
  const s = signature?.['s'];
  const starkKey = settlement?.['starkKey'];
  const position = settlement?.['collateralPosition'];
  if (
    typeof r !== 'string' ||
    typeof s !== 'string' ||
    !/^0x[0-9a-fA-F]+$/.test(r) ||
    !/^0x[0-9a-fA-F]+$/.test(s)
  ) {
    throw new ExtendedError(400, 1101, 'Invalid Starknet signature.');
  }
  if (typeof starkKey !== 'string' || !/^0x[0-9a-fA-F]+$/.test(starkKey)) {
    throw new ExtendedError(400, 1100, 'Invalid Starknet public key.');
  }
  if (typeof position !== 'string' || !/^\d+$/.test(position)) {
    throw new ExtendedError(400, 1102, 'Invalid Starknet vault.');
  }
  return { r: BigInt(r), s: BigInt(s), starkKey, collateralPosition: position };
}
