import { engineOrderId, numericId } from '../engine-ids';

/**
 * Lighter's two index spaces an order is named by (lighter-go
 * types/txtypes/constants.go): a client order index is 1 to 2^48 - 1 (0 is
 * "none"), an order index the venue gives is 2^48 to 2^60 - 1. A cancel's
 * `Index` is either, told apart by its range (cancel_order.go: "Client Order
 * Index or Order Index of the order to cancel").
 */
export const MAX_CLIENT_ORDER_INDEX = 2 ** 48 - 1;
export const MIN_ORDER_INDEX = 2 ** 48;
/** 2^60 - 1 on the venue; JavaScript numbers (ccxt's) are exact up to 2^53 - 1. */
export const MAX_ORDER_INDEX = Number.MAX_SAFE_INTEGER;
/** Order indices of orders the engine never held: far above the engine's numbering. */
const UNPLACED_BASE = MIN_ORDER_INDEX + 900_000_000_000_000;
/** Order indices of orders shown in progress (`order_queue=held`): above the engine's, below the unplaced. */
const HELD_BASE = MIN_ORDER_INDEX + 800_000_000_000_000;

/** The venue's order index of an engine order: above every client order index. */
export const orderIndexOf = (engineOrderIdText: string): number =>
  MIN_ORDER_INDEX + numericId(engineOrderIdText);

/** The engine order id behind an order index, or undefined when it names no engine order. */
export function engineIdOfOrderIndex(index: number): string | undefined {
  if (index < MIN_ORDER_INDEX || index >= HELD_BASE) {
    return undefined;
  }
  return engineOrderId(index - MIN_ORDER_INDEX);
}

/** The order index of the n-th order closed before the book. */
export const unplacedOrderIndex = (n: number): number => UNPLACED_BASE + n;

/** The order index the n-th order held in progress is shown with (`order_queue=held`). */
export const heldOrderIndex = (n: number): number => HELD_BASE + n;

/** Orders whose index is kept from their time in progress, per venue engine, by account and client order id. */
const keptIndices = new WeakMap<object, Map<string, number>>();
const MAX_KEPT = 10_000;
const keptKey = (wallet: string, clientOrderId: string): string => `${wallet}\n${clientOrderId}`;

/**
 * An order shown in progress keeps that index once the sequencer executes
 * it: in its reads, its trades and its stream frames.
 */
export function keepOrderIndex(
  venue: object,
  wallet: string,
  clientOrderId: string,
  index: number,
): void {
  let kept = keptIndices.get(venue);
  if (!kept) {
    kept = new Map();
    keptIndices.set(venue, kept);
  }
  kept.set(keptKey(wallet, clientOrderId), index);
  if (kept.size > MAX_KEPT) {
    kept.delete(kept.keys().next().value as string);
  }
}

/** The order index the venue shows an engine order (or a fill's order) by. */
export function shownOrderIndex(
  venue: object,
  order: { orderId: string; accountId: string; clientOrderId: string },
): number {
  return (
    keptIndices.get(venue)?.get(keptKey(order.accountId, order.clientOrderId)) ??
    orderIndexOf(order.orderId)
  );
}

/** True when a cancel's index is a client order index (below 2^48), false when an order index. */
export const isClientOrderIndex = (index: number): boolean => index <= MAX_CLIENT_ORDER_INDEX;
