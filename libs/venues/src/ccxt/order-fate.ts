import type { Order } from 'ccxt';
import { sleep } from '@sts/platform';

/** Updates kept for orders nobody waits on yet (the stream may beat the placement's answer). */
const REMEMBERED_UPDATES = 2_000;

type Waiter = (order: Order) => void;

/**
 * The account stream's first word on each order, for placements whose answer
 * names the order only (Extended): the official SDK takes an order's first
 * account-stream update as its fate (x10xchange/python_sdk,
 * x10/perpetual/simple_client/simple_trading_client.py). Kept per process
 * and keyed by venue, order id and our client order id: an order's updates
 * come only on its own account's stream, whichever client of the process
 * watches it, and the client id tells an order from another venue's (or an
 * earlier simulator's) order under the same id.
 */
export class OrderFates {
  private readonly latest = new Map<string, Order>();
  private readonly waiters = new Map<string, Waiter[]>();

  /** An order update from the account stream. */
  note(venue: string, order: Order): void {
    if (!order.id) {
      return;
    }
    const key = keyOf(venue, order.id, order.clientOrderId);
    const waiting = this.waiters.get(key);
    if (waiting) {
      this.waiters.delete(key);
      waiting.forEach((resolve) => resolve(order));
    }
    if (!this.latest.has(key)) {
      this.latest.set(key, order);
      if (this.latest.size > REMEMBERED_UPDATES) {
        this.latest.delete(this.latest.keys().next().value as string);
      }
    }
  }

  /** The first update of an order since it was placed, or undefined when none came within `ms`. */
  async first(
    venue: string,
    placed: { id: string; clientOrderId?: string },
    ms: number,
  ): Promise<Order | undefined> {
    const key = keyOf(venue, placed.id, placed.clientOrderId);
    const seen = this.latest.get(key);
    if (seen) {
      return seen;
    }
    let waiter: Waiter | undefined;
    const streamed = new Promise<Order>((resolve) => {
      waiter = resolve;
      this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]);
    });
    const timedOut = sleep(ms, undefined, { ref: false }).then(() => undefined);
    const order = await Promise.race([streamed, timedOut]);
    const left = (this.waiters.get(key) ?? []).filter((other) => other !== waiter);
    if (left.length > 0) {
      this.waiters.set(key, left);
    } else {
      this.waiters.delete(key);
    }
    return order;
  }
}

const keyOf = (venue: string, orderId: string, clientOrderId: string | undefined): string =>
  `${venue}\n${orderId}\n${clientOrderId ?? ''}`;

/** The process's record of account-stream order updates (fed by CcxtAccountEvents). */
export const ORDER_FATES = new OrderFates();
