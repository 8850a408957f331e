import type { CancelCommand } from '../../engine/types';
import { AsterError } from './aster-errors';
import { required } from './aster-orders';
import { engineOrderId } from './aster-wire';

/**
 * The parameters of Aster's batch endpoints (futures v3, github asterdex/api-docs
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`):
 *
 * - "Place Multiple Orders (TRADE)", `POST /fapi/v3/batchOrders` (L2686-2720):
 *   `batchOrders`, "order list. Max 5 orders", each element with New Order's
 *   parameters ("Paremeter rules are same with `New Order`");
 * - "Cancel Multiple Orders (TRADE)", `DELETE /fapi/v3/batchOrders` (L2919-2932):
 *   `symbol`, and `orderIdList` or `origClientOrderIdList`, each "max length 10".
 */
export const MAX_BATCH_PLACE = 5;
export const MAX_BATCH_CANCEL = 10;

/**
 * `batchOrders`: a JSON list of order objects, as ccxt 4.5.84 sends it
 * (`encodeValuesWithJson`). The document's own Python example sends the list
 * with single quotes (`"[{'symbol':'ASTERUSDT',...}]"`, L327-328), taken too.
 * A list that is no list of objects is -1130 naming the parameter; an empty
 * one, or one over 5, is -4082 INVALID_BATCH_PLACE_ORDER_SIZE (error list,
 * L5774-5777) and places nothing.
 */
export function parseBatchOrders(params: Record<string, string>): Record<string, string>[] {
  const list = jsonList(required(params, 'batchOrders'), 'batchOrders');
  if (list.length === 0 || list.length > MAX_BATCH_PLACE) {
    throw new AsterError('invalidBatchSize', [list.length]);
  }
  return list.map((element) => {
    if (!element || typeof element !== 'object' || Array.isArray(element)) {
      throw new AsterError('invalidParameter', ['batchOrders']);
    }
    return elementParams(element as Record<string, unknown>);
  });
}

/** An element's values as New Order's parameters: strings, numbers and booleans as sent. */
function elementParams(element: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(element)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      params[name] = String(value);
    } else if (value !== null && value !== undefined) {
      throw new AsterError('invalidParameter', ['batchOrders']);
    }
  }
  return params;
}

/** A batch cancel's orders: each an engine target, or the refusal its element answers. */
export interface BatchCancel {
  symbol: string;
  targets: (CancelCommand | AsterError)[];
}

/**
 * `orderIdList` (ids as numbers or strings; ccxt sends the ids it was given)
 * wins over `origClientOrderIdList`, as `orderId` does in a single cancel;
 * neither is -1102. More than 10 is refused as a bad parameter (-1130: the
 * document gives the limit, not the answer; assumed). An id that names no
 * order the venue issued is that element's -2011 `Unknown order sent.`.
 */
export function parseBatchCancel(params: Record<string, string>): BatchCancel {
  const symbol = required(params, 'symbol');
  const name = present(params, 'orderIdList')
    ? 'orderIdList'
    : present(params, 'origClientOrderIdList')
      ? 'origClientOrderIdList'
      : undefined;
  if (name === undefined) {
    throw new AsterError('eitherParameter', ['orderIdList', 'origClientOrderIdList']);
  }
  const list = jsonList(params[name], name);
  if (list.length === 0 || list.length > MAX_BATCH_CANCEL) {
    throw new AsterError('invalidParameter', [name]);
  }
  const targets = list.map((item): CancelCommand | AsterError => {
    if (typeof item !== 'string' && typeof item !== 'number') {
      throw new AsterError('invalidParameter', [name]);
    }
    if (name === 'origClientOrderIdList') {
      return { clientOrderId: String(item) };
    }
    const engineId = engineOrderId(String(item));
    return engineId ? { orderId: engineId } : new AsterError('unknownOrderSent');
  });
  return { symbol, targets };
}

const present = (params: Record<string, string>, name: string): boolean =>
  params[name] !== undefined && params[name] !== '';

function jsonList(text: string, name: string): unknown[] {
  const attempts = text.includes('"') ? [text] : [text, text.replace(/'/g, '"')];
  for (const attempt of attempts) {
    try {
      const value: unknown = JSON.parse(attempt);
      if (Array.isArray(value)) {
        return value;
      }
    } catch {
      // the next form, else refused below
    }
  }
  throw new AsterError('invalidParameter', [name]);
}
