import Big from 'big.js';
import { compare, signOf } from '../decimal/compare';
import type { LedgerOrder, MakerObligation } from './maker-order';

const ZERO = new Big(0);

// The ledger's reading of its orders: what must happen next, how much may
// still fill, the fills not counted yet.

/**
 * What must happen next (see MakerObligation): one pass over the orders,
 * nothing allocated but the answer. When nothing is unsettled and some order
 * is closed, `forgetClosed` runs first (the ledger drops the closed orders
 * whose fills are all counted).
 */
export function obligationOf(
  orders: readonly LedgerOrder[],
  nowMs: number,
  forgetClosed: () => void,
): MakerObligation {
  let settle: LedgerOrder | undefined;
  let settleAt = Infinity;
  let uncounted = false;
  let live = 0;
  let oldest: LedgerOrder | undefined;
  let newest: LedgerOrder | undefined;
  for (const order of orders) {
    if (order.fate === 'unknown') {
      // The new order of a replace first: if it rests, the old one is gone.
      if (order.lookUpAtMs > nowMs) {
        settleAt = Math.min(settleAt, order.lookUpAtMs);
      } else if (!settle || (order.replaces !== null && settle.replaces === null)) {
        settle = order;
      }
    }
    if (compare(order.venueFilled, order.seenFilled) > 0) {
      uncounted = true;
    }
    if (order.fate !== 'closed') {
      live += 1;
      oldest ??= order;
      newest = order;
    }
  }
  if (settle) {
    return { kind: 'settle', order: settle };
  }
  if (settleAt < Infinity) {
    return { kind: 'settle_at', atMs: settleAt };
  }
  if (uncounted) {
    return {
      kind: 'read_fills',
      clientOrderIds: orders
        .filter((order) => compare(order.venueFilled, order.seenFilled) > 0)
        .map((order) => order.clientOrderId),
    };
  }
  if (live < orders.length) {
    forgetClosed();
  }
  if (live > 1 && oldest) {
    return { kind: 'cancel', order: oldest };
  }
  return { kind: 'quote', current: newest ?? null };
}

/** The most that may still fill on the venue (see MakerOrderLedger.exposure). */
export function exposureOf(live: readonly LedgerOrder[]): Big {
  let total = ZERO;
  for (const order of live) {
    // The old order of an unsettled replace is counted with its successor.
    if (live.some((other) => other.replaces === order.clientOrderId)) {
      continue;
    }
    const previous = live.find((other) => other.clientOrderId === order.replaces);
    const own = leaves(order);
    const other = previous ? leaves(previous) : ZERO;
    total = total.plus(compare(own, other) >= 0 ? own : other);
  }
  return total;
}

export function uncountedFills(orders: readonly LedgerOrder[]): Big {
  let total = ZERO;
  for (const order of orders) {
    const missing = order.venueFilled.minus(order.seenFilled);
    if (signOf(missing) > 0) {
      total = total.plus(missing);
    }
  }
  return total;
}

/** Size of an order that may still fill. */
const leaves = (order: LedgerOrder): Big => {
  const filled =
    compare(order.venueFilled, order.seenFilled) >= 0 ? order.venueFilled : order.seenFilled;
  const left = order.size.minus(filled);
  return signOf(left) > 0 ? left : ZERO;
};
