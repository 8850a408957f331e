import { ExtendedError } from './extended-accounts';

/**
 * `POST /api/v1/user/order/massCancel`, Extended's one batch endpoint
 * (api.docs.extended.exchange/#mass-cancel, as ccxt 4.5.84 extended.js
 * `cancelOrders` and `cancelAllOrders` cite and send it; x10xchange/python_sdk
 * `OrderManagementModule.mass_cancel`): `orderIds`, `externalOrderIds`,
 * `markets` and `cancelAll`, any of them; the answer is `{status: "OK",
 * data: {}}` (ccxt's recorded answer), nothing per order. Extended documents
 * no batch placement: an order is one `POST /api/v1/user/order`.
 */
export interface MassCancel {
  orderIds: string[];
  externalOrderIds: string[];
  /** Market names (`ETH-USD`); null when the request names none. */
  markets: string[] | null;
  cancelAll: boolean;
}

const refused = () => new ExtendedError(400, 1133, 'Invalid mass cancel parameters.');

function listOf(value: unknown, item: (entry: unknown) => boolean): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value) || !value.every(item)) {
    throw refused();
  }
  return value;
}

/**
 * The body's selection. One that selects nothing (no ids, no markets, no
 * `cancelAll`) or a field of the wrong type is refused 1133, the code of the
 * venue's invalid parameters (its words here and the refusal itself: assumed).
 */
export function readMassCancel(raw: string): MassCancel {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw || '{}') as Record<string, unknown>;
  } catch {
    throw refused();
  }
  const id = (entry: unknown) =>
    (typeof entry === 'number' && Number.isSafeInteger(entry)) ||
    (typeof entry === 'string' && /^\d+$/.test(entry));
  const text = (entry: unknown) => typeof entry === 'string' && entry.length > 0;
  const cancelAll = body['cancelAll'] ?? false;
  if (typeof cancelAll !== 'boolean') {
    throw refused();
  }
  const selection: MassCancel = {
    orderIds: listOf(body['orderIds'], id).map(String),
    externalOrderIds: listOf(body['externalOrderIds'], text) as string[],
    markets: body['markets'] === undefined ? null : (listOf(body['markets'], text) as string[]),
    cancelAll,
  };
  const names =
    selection.orderIds.length +
    selection.externalOrderIds.length +
    (selection.markets?.length ?? 0);
  if (names === 0 && !cancelAll) {
    throw refused();
  }
  return selection;
}
