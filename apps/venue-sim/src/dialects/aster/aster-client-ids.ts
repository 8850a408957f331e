import Big from 'big.js';
import type { CancelCommand, EngineOrder, PlaceCommand } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { AsterError } from './aster-errors';

/**
 * Aster's `newClientOrderId` is "A unique id among open orders" (futures v3
 * docs, New Order): once the order that carried it has closed, the same id
 * names a new order. The engine keeps a client id for the whole run, so the
 * n-th order to carry Aster's id `X` is `X#n` to the engine (n ≥ 2; `#` is
 * outside Aster's id alphabet `^[.A-Z:/a-z0-9_-]{1,36}$`, so the two never
 * meet). The wire shows `X` again; a look-up by `X` finds the latest.
 */
const REUSE_MARK = '#';

const engineClientId = (asterId: string, use: number): string =>
  use === 1 ? asterId : `${asterId}${REUSE_MARK}${use}`;

/** The client id Aster shows for an engine order's client id. */
export function asterClientId(engineId: string): string {
  const at = engineId.indexOf(REUSE_MARK);
  return at < 0 ? engineId : engineId.slice(0, at);
}

export const isOpen = (order: EngineOrder): boolean =>
  order.status === 'open' || order.status === 'partially_filled';

/** Every order of the account that carried Aster's client id, oldest first. */
function ordersCarrying(venue: VenueEngine, accountId: string, asterId: string): EngineOrder[] {
  const orders: EngineOrder[] = [];
  for (let use = 1; ; use += 1) {
    const order = venue.registry.byClientOrderId(accountId, engineClientId(asterId, use));
    if (!order) {
      return orders;
    }
    orders.push(order);
  }
}

/**
 * The engine's client id for a new order carrying Aster's id: a fresh one
 * when every earlier order with it has closed. An open one refuses the order
 * (-4116, Binance USDⓈ-M's code: Aster's error list has none for it).
 */
export function clientIdForNewOrder(
  venue: VenueEngine,
  accountId: string,
  command: PlaceCommand,
): string {
  const earlier = ordersCarrying(venue, accountId, command.clientOrderId);
  if (earlier.some(isOpen)) {
    throw new AsterError('duplicateClientOrderId');
  }
  return engineClientId(command.clientOrderId, earlier.length + 1);
}

/** A cancel or query target in the engine's terms: a client id names its latest order. */
export function engineTarget(
  venue: VenueEngine,
  accountId: string,
  target: CancelCommand,
): CancelCommand {
  if (!('clientOrderId' in target)) {
    return target;
  }
  const latest = ordersCarrying(venue, accountId, target.clientOrderId).pop();
  return latest ? { orderId: latest.orderId } : target;
}

/**
 * Orders the venue took and expired on entry: a GTX order that would cross
 * under the `post_only_cross=expire` reading. They are recorded with the
 * engine's orders (so a look-up and the simulator's records find them) under
 * an epoch no run reaches, and are never open.
 */
export const EXPIRED_ON_ENTRY_EPOCH = 999_999;

export const expiredOnEntry = (order: EngineOrder): boolean =>
  order.orderId.startsWith(`o-${EXPIRED_ON_ENTRY_EPOCH}-`);

/** Records a GTX order the venue expired at once, nothing filled. */
export function recordExpiredOnEntry(
  venue: VenueEngine,
  accountId: string,
  command: PlaceCommand,
  seq: number,
): EngineOrder {
  const market = venue.market(command.symbol);
  const now = Date.now();
  const order: EngineOrder = {
    orderId: `o-${EXPIRED_ON_ENTRY_EPOCH}-${seq}`,
    clientOrderId: command.clientOrderId,
    accountId,
    symbol: command.symbol,
    side: command.side,
    type: 'post_only',
    priceTicks: market.price.toSteps(command.price) ?? 0,
    sizeLots: market.lot.toSteps(command.size) ?? 0,
    filledLots: 0,
    filledValue: new Big(0),
    status: 'canceled',
    createdAtMs: now,
    updatedAtMs: now,
  };
  venue.registry.add(order);
  return order;
}
