import type { Simulator } from '../../engine/simulator';
import { HeldPlacements, type HeldPlacement } from '../held-placements';
import type { ParsedOrder } from './paradex-order-request';
import { queuedOrder } from './paradex-order-views';

const MAX_REMEMBERED = 10_000;
/** Ids of orders answered while held: above the engine's (epoch × 10⁹ + seq), below the unplaced (9 × 10¹⁴). */
const FIRST_HELD_ID = 800_000_000_000_000;

/** An order the venue answered NEW and holds before its engine acts (`order_queue=held`). */
export interface HeldOrder extends HeldPlacement {
  order: ParsedOrder;
  kind: 'ioc' | 'post_only';
  /** The engine's client order id (the order's own, or one the dialect made for an order without). */
  clientOrderId: string;
}

/** What names an order in a request: its id, or its client id. */
export type OrderTarget = { id?: string; clientId?: string };

/** An order as the queue acknowledged it (`queuedOrder`'s fields). */
export const queuedEntry = (
  id: string,
  account: string,
  order: ParsedOrder,
  createdAtMs: number,
) => ({
  id,
  account,
  market: order.market,
  side: order.side,
  size: order.size,
  price: order.price,
  clientId: order.clientId,
  instruction: order.instruction,
  reduceOnly: order.reduceOnly,
  createdAtMs,
});

/** A held order as every read shows it until its engine acts: NEW, nothing filled. */
export const heldView = (held: HeldOrder) =>
  queuedOrder(queuedEntry(held.id, held.account, held.order, held.heldAtMs));

/**
 * The orders Paradex answered NEW and holds (`order_queue=held`): each
 * answered with an id of its own, which stays its id after the engine acts
 * (`named` maps it to the engine's order by client order id).
 */
export class ParadexHeldOrders {
  private seq = 0;
  private readonly held: HeldPlacements<HeldOrder>;
  private readonly ids = new Map<string, { account: string; clientOrderId: string }>();

  constructor(
    private readonly world: () => Simulator,
    frozen: () => boolean,
    act: (held: HeldOrder) => void,
  ) {
    this.held = new HeldPlacements(world, frozen, act);
  }

  /** Holds an order for `ms`; answers it as held. */
  hold(
    account: string,
    order: ParsedOrder,
    kind: 'ioc' | 'post_only',
    clientOrderId: string,
    ms: number,
  ): HeldOrder {
    this.seq += 1;
    const id = String(FIRST_HELD_ID + this.seq);
    const held: HeldOrder = {
      ...{ id, account, world: this.world(), heldAtMs: Date.now(), cancelAfter: false },
      ...{ order, kind, clientOrderId },
    };
    this.ids.set(id, { account, clientOrderId });
    if (this.ids.size > MAX_REMEMBERED) {
      this.ids.delete(this.ids.keys().next().value as string);
    }
    this.held.hold(held, ms);
    return held;
  }

  /** The account's held order a request names (by client id: its own, never one made for it). */
  of(account: string, target: OrderTarget): HeldOrder | undefined {
    const { id, clientId } = target;
    if (clientId !== undefined) {
      return this.held.find(
        (held) => held.account === account && held.order.clientId === clientId && clientId !== '',
      );
    }
    const held = id !== undefined ? this.held.get(id) : undefined;
    return held?.account === account ? held : undefined;
  }

  /** True when one of the account's held orders has this engine client order id. */
  has(account: string, clientOrderId: string): boolean {
    return !!this.held.find(
      (held) => held.account === account && held.clientOrderId === clientOrderId,
    );
  }

  /** The account's held orders (of one market when given). */
  ofAccount(account: string, market: string | null): HeldOrder[] {
    return this.held
      .ofAccount(account)
      .filter((held) => market === null || held.order.market === market);
  }

  /** The engine order an id answered while held names (it keeps naming it after the engine acts). */
  named(id: string): { account: string; clientOrderId: string } | undefined {
    return this.ids.get(id);
  }

  close(): void {
    this.held.close();
  }
}
