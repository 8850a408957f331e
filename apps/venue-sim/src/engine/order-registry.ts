import type { EngineFill, EngineOrder } from './types';

/**
 * Every account order and fill the venue has seen, kept for the whole run so
 * a client order id stays known (idempotent placement, crash recovery) and
 * fills can be listed since any time.
 */
export class OrderRegistry {
  private readonly byId = new Map<string, EngineOrder>();
  private readonly byClientId = new Map<string, EngineOrder>();
  private readonly byAccount = new Map<string, EngineOrder[]>();
  private readonly openByAccount = new Map<string, Set<EngineOrder>>();
  private readonly fillsByAccount = new Map<string, EngineFill[]>();
  private readonly fillsByOrder = new Map<string, EngineFill[]>();

  add(order: EngineOrder): void {
    this.byId.set(order.orderId, order);
    this.byClientId.set(clientKey(order.accountId, order.clientOrderId), order);
    const orders = this.byAccount.get(order.accountId) ?? [];
    orders.push(order);
    this.byAccount.set(order.accountId, orders);
  }

  /** Every order of the account the venue recorded, oldest first. */
  ordersOf(accountId: string): EngineOrder[] {
    return [...(this.byAccount.get(accountId) ?? [])];
  }

  get(accountId: string, orderId: string): EngineOrder | undefined {
    const order = this.byId.get(orderId);
    return order && order.accountId === accountId ? order : undefined;
  }

  byClientOrderId(accountId: string, clientOrderId: string): EngineOrder | undefined {
    return this.byClientId.get(clientKey(accountId, clientOrderId));
  }

  orderById(orderId: string): EngineOrder | undefined {
    return this.byId.get(orderId);
  }

  markOpen(order: EngineOrder): void {
    let open = this.openByAccount.get(order.accountId);
    if (!open) {
      open = new Set();
      this.openByAccount.set(order.accountId, open);
    }
    open.add(order);
  }

  markClosed(order: EngineOrder): void {
    this.openByAccount.get(order.accountId)?.delete(order);
  }

  open(accountId: string): EngineOrder[] {
    return [...(this.openByAccount.get(accountId) ?? [])];
  }

  recordFill(fill: EngineFill): void {
    const list = this.fillsByAccount.get(fill.accountId) ?? [];
    list.push(fill);
    this.fillsByAccount.set(fill.accountId, list);
    const forOrder = this.fillsByOrder.get(fill.orderId) ?? [];
    forOrder.push(fill);
    this.fillsByOrder.set(fill.orderId, forOrder);
  }

  fillsOf(orderId: string): EngineFill[] {
    return [...(this.fillsByOrder.get(orderId) ?? [])];
  }

  /** Fills at or after `sinceMs`, oldest first (fills are recorded in time order). */
  fillsSince(accountId: string, sinceMs: number): EngineFill[] {
    const list = this.fillsByAccount.get(accountId) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (list[mid].tsMs < sinceMs) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return list.slice(low);
  }
}

const clientKey = (accountId: string, clientOrderId: string): string =>
  `${accountId}\u0000${clientOrderId}`;
