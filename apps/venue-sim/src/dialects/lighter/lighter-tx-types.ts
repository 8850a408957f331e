import { LighterError } from './lighter-accounts';
import {
  TX_CANCEL_ALL_ORDERS,
  parseCancelAllOrders,
  type CancelAllOrdersTx,
} from './lighter-cancel-all';
import {
  TX_TYPE,
  parseCancelOrder,
  parseCreateOrder,
  type CancelOrderTx,
  type CreateOrderTx,
} from './lighter-tx';

/** A transaction the simulator executes. */
export type LighterTx = CreateOrderTx | CancelOrderTx | CancelAllOrdersTx;

const PARSERS = new Map<number, (info: Record<string, unknown>) => LighterTx>([
  [TX_TYPE.createOrder, parseCreateOrder],
  [TX_TYPE.cancelOrder, parseCancelOrder],
  [TX_CANCEL_ALL_ORDERS, parseCancelAllOrders],
]);

/** A `sendTx` transaction's fields by its `tx_type`; any other type is refused (21505). */
export function parseTx(txType: number, info: Record<string, unknown>): LighterTx {
  const parse = PARSERS.get(txType);
  if (!parse) {
    throw new LighterError(400, 21505, 'unsupported tx type');
  }
  return parse(info);
}
