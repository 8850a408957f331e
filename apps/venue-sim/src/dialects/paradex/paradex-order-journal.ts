import type { Simulator } from '../../engine/simulator';

/** An order as Paradex shows it, as far as the journal needs it. */
interface ShownOrder {
  id: string;
  account: string;
}

/** Orders whose states are remembered (the oldest order's go first). */
const MAX_ORDERS = 10_000;

/**
 * Each order's states as Paradex showed them, with when: what a history that
 * lags (`history_lag=lagging`) serves. A state is recorded as the venue
 * shows it then (queued `NEW`, each change the engine makes, a close before
 * the book); a read as of a moment gets each order's latest state at or
 * before it, and leaves out an order with none yet.
 */
export class ParadexOrderJournal<T extends ShownOrder> {
  private readonly states = new Map<
    string,
    { world: Simulator; entries: Array<{ atMs: number; order: T }> }
  >();

  record(world: Simulator, order: T, atMs: number = Date.now()): void {
    const known = this.states.get(order.id);
    if (known && known.world === world) {
      known.entries.push({ atMs, order });
      return;
    }
    this.states.delete(order.id);
    this.states.set(order.id, { world, entries: [{ atMs, order }] });
    if (this.states.size > MAX_ORDERS) {
      this.states.delete(this.states.keys().next().value as string);
    }
  }

  /** The account's orders of this world as they were at `atMs`. */
  asOf(world: Simulator, account: string, atMs: number): T[] {
    const orders: T[] = [];
    for (const { world: recordedIn, entries } of this.states.values()) {
      if (recordedIn !== world || entries[0].order.account !== account) {
        continue;
      }
      const state = entries.filter((entry) => entry.atMs <= atMs).at(-1);
      if (state) {
        orders.push(state.order);
      }
    }
    return orders;
  }
}
