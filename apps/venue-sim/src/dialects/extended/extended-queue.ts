import type { Simulator } from '../../engine/simulator';
import type { ExtendedAccount } from './extended-accounts';
import type { ParsedOrder } from './extended-order-request';

/** How long after its answer the venue's engine acts on a placement (`order_queue=prompt`, unless held). */
export const QUEUE_MS = 30;

/** A placement the venue answered (ids only) and its engine has not acted on yet. */
export interface QueuedPlacement {
  id: string;
  wallet: string;
  account: ExtendedAccount;
  order: ParsedOrder;
  createdTime: number;
  /** The world it was placed in: a reset drops it. */
  world: Simulator;
  /** How often it was read while queued (the simulator's own record, for tests). */
  reads: number;
  /** When the engine acts on it (unless the queue is held then). */
  dueAtMs?: number;
  /** A cancel came while it was queued (`order_queue=held`): it acts right after the order reaches the engine. */
  cancelAfter?: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * Extended's placement queue: `POST /api/v1/user/order` answers the order's
 * ids and the engine acts on it `delayMs()` later (QUEUE_MS, or the
 * `order_queue=held` reading's hold), in arrival order; the official SDK
 * learns the fate from the account stream (x10xchange python_sdk,
 * x10/perpetual/simple_client/simple_trading_client.py). The simulator's
 * control holds the queue (`POST /dialects/extended/_sim/queue {hold}`) so a
 * test sees a placement queued as long as it wants; released, each acts once
 * its own delay has passed.
 */
export class ExtendedQueue {
  private readonly queued = new Map<string, QueuedPlacement>();
  private held = false;

  constructor(
    private readonly act: (placement: QueuedPlacement) => void,
    private readonly delayMs: () => number = () => QUEUE_MS,
  ) {}

  add(placement: QueuedPlacement): void {
    placement.dueAtMs = Date.now() + this.delayMs();
    this.queued.set(placement.id, placement);
    if (!this.held) {
      this.schedule(placement);
    }
  }

  /** Holds every placement (queued now or later) until released; release acts on them in order. */
  hold(held: boolean): void {
    this.held = held;
    for (const placement of this.queued.values()) {
      clearTimeout(placement.timer);
      if (!held) {
        this.schedule(placement);
      }
    }
  }

  /**
   * Acts now on every placement of a wallet, in arrival order: a later
   * request of the account (a cancel, or a read where the first read shows
   * the fate) reaches the engine after them.
   */
  flushWallet(wallet: string): void {
    for (const placement of [...this.queued.values()]) {
      if (placement.wallet === wallet) {
        this.run(placement);
      }
    }
  }

  get(id: string): QueuedPlacement | undefined {
    return this.queued.get(id);
  }

  byExternalId(wallet: string, externalId: string): QueuedPlacement | undefined {
    return [...this.queued.values()].find(
      (placement) => placement.wallet === wallet && placement.order.externalId === externalId,
    );
  }

  ofWallet(wallet: string): QueuedPlacement[] {
    return [...this.queued.values()].filter((placement) => placement.wallet === wallet);
  }

  state(): { held: boolean; orders: Array<{ id: string; externalId: string; reads: number }> } {
    return {
      held: this.held,
      orders: [...this.queued.values()].map((placement) => ({
        id: placement.id,
        externalId: placement.order.externalId,
        reads: placement.reads,
      })),
    };
  }

  close(): void {
    this.queued.forEach((placement) => clearTimeout(placement.timer));
    this.queued.clear();
  }

  private schedule(placement: QueuedPlacement): void {
    const delay = Math.max(0, (placement.dueAtMs ?? 0) - Date.now());
    placement.timer = setTimeout(() => this.run(placement), delay);
    placement.timer.unref?.();
  }

  private run(placement: QueuedPlacement): void {
    clearTimeout(placement.timer);
    if (!this.queued.delete(placement.id)) {
      return;
    }
    this.act(placement);
  }
}
