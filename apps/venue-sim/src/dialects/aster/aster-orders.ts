import type { OrderKind } from '../../control/faults';
import type { CancelCommand, PlaceCommand } from '../../engine/types';
import { AsterError } from './aster-errors';
import { engineOrderId, type AsterTif } from './aster-wire';

/** `newClientOrderId` as Aster allows it (futures v3 docs, New Order). */
const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
/** Order types and times in force Aster has but the simulator's engine does not trade. */
const UNSUPPORTED_TYPES = new Set([
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
]);
const UNSUPPORTED_TIFS = new Set(['FOK', 'HIDDEN']);

/** A new order in the engine's terms, with what Aster reports of it. */
export interface AsterNewOrder {
  command: PlaceCommand;
  tif: AsterTif;
  /** The paper vocabulary the shared order path (faults, lose-next rules) matches on. */
  kind: OrderKind;
}

/**
 * `POST /fapi/v3/order` parameters. LIMIT orders only; `GTX` (post-only)
 * rests or is refused when it would cross; `IOC` takes what the book offers
 * and the rest expires; `GTC` is placed as a resting order when it does not
 * cross, and refused (-1020) when it would, since the engine cannot take
 * liquidity and rest the remainder in one order. `reduceOnly=true` on an IOC
 * takes at most the position on its other side and is refused (-2022) with
 * none; on a resting order -1020 (the engine reduces with an IOC only). `builder`/`feeRate` are
 * accepted and ignored (the engine charges no integrator fee; the request log
 * shows them); other unknown parameters are ignored, as Binance-style venues do.
 */
export function parseNewOrder(
  params: Record<string, string>,
  clientOrderId: () => string,
): AsterNewOrder {
  const symbol = required(params, 'symbol');
  const side = required(params, 'side');
  if (side !== 'BUY' && side !== 'SELL') {
    throw new AsterError('invalidSide');
  }
  const type = required(params, 'type');
  if (UNSUPPORTED_TYPES.has(type)) {
    throw new AsterError('unsupported');
  }
  if (type !== 'LIMIT') {
    throw new AsterError('invalidOrderType');
  }
  const tif = required(params, 'timeInForce');
  if (UNSUPPORTED_TIFS.has(tif)) {
    throw new AsterError('unsupported');
  }
  if (tif !== 'GTX' && tif !== 'IOC' && tif !== 'GTC') {
    throw new AsterError('invalidTimeInForce');
  }
  const quantity = decimal(params, 'quantity');
  const price = decimal(params, 'price');
  if (Number(quantity) <= 0) {
    throw new AsterError('qtyBelowZero');
  }
  if (Number(price) <= 0) {
    throw new AsterError('priceBelowZero');
  }
  const positionSide = params['positionSide'];
  if (positionSide !== undefined && positionSide !== 'BOTH') {
    throw new AsterError('positionSideMismatch');
  }
  const reduceOnly = reduceOnlyOf(params);
  if (reduceOnly && tif !== 'IOC') {
    // Aster rests reduce-only orders; the engine reduces with an IOC only.
    throw new AsterError('unsupported');
  }
  const given = params['newClientOrderId'];
  if (given !== undefined && !CLIENT_ORDER_ID.test(given)) {
    throw new AsterError('invalidClientOrderId');
  }
  return {
    command: {
      symbol,
      side: side === 'BUY' ? 'buy' : 'sell',
      type: tif === 'IOC' ? 'ioc' : 'post_only',
      price,
      size: quantity,
      clientOrderId: given ?? clientOrderId(),
      // Exempt from the notional minimum, as -4164 says ("unless you choose reduce only").
      ...(reduceOnly ? { reduceOnly: true, reduceOnlyMinimums: 'waive_notional' as const } : {}),
    },
    tif,
    kind: tif === 'IOC' ? 'ioc' : 'post_only',
  };
}

/**
 * `reduceOnly`: "true" or "false" (New Order; the Chase order page: case-insensitive, any
 * other value refused as INVALID_PARAMETER naming it), "false" when absent.
 */
function reduceOnlyOf(params: Record<string, string>): boolean {
  const value = params['reduceOnly'];
  if (value === undefined) {
    return false;
  }
  const word = value.toLowerCase();
  if (word !== 'true' && word !== 'false') {
    throw new AsterError('invalidParameter', ['reduceOnly']);
  }
  return word === 'true';
}

/** The order a cancel or query names: `orderId` or `origClientOrderId` (orderId wins). */
export function parseOrderTarget(params: Record<string, string>): {
  symbol: string;
  target: CancelCommand;
} {
  const symbol = required(params, 'symbol');
  const { orderId, origClientOrderId } = params;
  if (orderId !== undefined && orderId !== '') {
    const engineId = engineOrderId(orderId);
    if (!engineId) {
      throw new AsterError('mandatoryParameter', ['orderId']);
    }
    return { symbol, target: { orderId: engineId } };
  }
  if (origClientOrderId !== undefined && origClientOrderId !== '') {
    return { symbol, target: { clientOrderId: origClientOrderId } };
  }
  throw new AsterError('eitherParameter', ['orderId', 'origClientOrderId']);
}

export function required(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') {
    throw new AsterError('mandatoryParameter', [name]);
  }
  return value;
}

function decimal(params: Record<string, string>, name: string): string {
  const value = required(params, name);
  if (!DECIMAL.test(value)) {
    throw new AsterError('invalidParameter', [name]);
  }
  return value;
}

/** An optional non-negative integer parameter (a limit, a time, an id). */
export function integer(params: Record<string, string>, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === '') {
    return undefined;
  }
  if (!/^\d{1,16}$/.test(value)) {
    throw new AsterError('invalidParameter', [name]);
  }
  return Number(value);
}
