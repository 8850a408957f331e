import { LighterError, MAX_48_BITS } from './lighter-accounts';

/** Lighter's transaction types (the `tx_type` form field) the simulator executes. */
export const TX_TYPE = { createOrder: 14, cancelOrder: 15 } as const;

/** Order types and times in force as a signed order carries them. */
export const ORDER_TYPE_LIMIT = 0;
export const TIME_IN_FORCE = { ioc: 0, gtt: 1, postOnly: 2 } as const;

/** What every signed transaction carries besides its own fields. */
interface SignedTx {
  accountIndex: number;
  apiKeyIndex: number;
  expiredAt: number;
  nonce: number;
  sig: string;
}

export interface CreateOrderTx extends SignedTx {
  marketIndex: number;
  clientOrderIndex: number;
  baseAmount: number;
  price: number;
  isAsk: boolean;
  timeInForce: number;
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

const int = (info: Record<string, unknown>, field: string, min: number, max: number): number => {
  const value = info[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new LighterError(400, 21501, `invalid tx info: ${field}`);
  }
  return value;
};

function signed(info: Record<string, unknown>): SignedTx {
  const sig = info['Sig'];
  // Lighter's signature: 80 bytes (Schnorr over ECgFp5), base64. Its form is
  // checked; no verifier of the scheme is available to the simulator.
  if (typeof sig !== 'string' || !/^[A-Za-z0-9+/]{106}[A-Za-z0-9+/=]{2}$/.test(sig)) {
    throw new LighterError(400, 21120, 'invalid signature');
  }
  const expiredAt = int(info, 'ExpiredAt', 0, Number.MAX_SAFE_INTEGER);
  if (expiredAt < Date.now()) {
    throw new LighterError(400, 21117, 'transaction expired');
  }
  return {
    accountIndex: int(info, 'AccountIndex', 0, MAX_48_BITS),
    apiKeyIndex: int(info, 'ApiKeyIndex', 0, 255),
    expiredAt,
    nonce: int(info, 'Nonce', 0, MAX_48_BITS),
    sig,
  };
}

/**
 * A create-order transaction's fields, as Lighter's signer lays them out.
 * An integrator (builder) with a fee is refused: the simulated venue has
 * none, and the service must never send one.
 */
export function parseCreateOrder(info: Record<string, unknown>): CreateOrderTx {
  const base = signed(info);
  if (int(info, 'Type', 0, 10) !== ORDER_TYPE_LIMIT) {
    throw new LighterError(400, 21710, 'unsupported order type');
  }
  if (int(info, 'ReduceOnly', 0, 1) !== 0) {
    throw new LighterError(400, 21740, 'invalid reduce only mode');
  }
  if (int(info, 'TriggerPrice', 0, 2 ** 32 - 1) !== 0) {
    throw new LighterError(400, 21729, 'invalid order trigger price');
  }
  for (const field of ['IntegratorAccountIndex', 'IntegratorTakerFee', 'IntegratorMakerFee']) {
    if (info[field] !== undefined && info[field] !== 0) {
      throw new LighterError(400, 21146, `the simulated venue has no integrators: ${field}`);
    }
  }
  const isAsk = int(info, 'IsAsk', 0, 1);
  return {
    ...base,
    marketIndex: int(info, 'MarketIndex', 0, 32_767),
    clientOrderIndex: int(info, 'ClientOrderIndex', 0, MAX_48_BITS),
    baseAmount: int(info, 'BaseAmount', 1, MAX_48_BITS),
    price: int(info, 'Price', 1, 2 ** 32 - 1),
    isAsk: isAsk === 1,
    timeInForce: int(info, 'TimeInForce', 0, 2),
    orderExpiry: int(info, 'OrderExpiry', -1, Number.MAX_SAFE_INTEGER),
  };
}

export function parseCancelOrder(info: Record<string, unknown>): CancelOrderTx {
  return {
    ...signed(info),
    marketIndex: int(info, 'MarketIndex', 0, 32_767),
    index: int(info, 'Index', 0, Number.MAX_SAFE_INTEGER),
  };
}
