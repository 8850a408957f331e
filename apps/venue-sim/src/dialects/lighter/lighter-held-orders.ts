import type { MarketState } from '../../engine/market-state';
import type { Simulator } from '../../engine/simulator';
import { HeldPlacements, type HeldPlacement } from '../held-placements';
import type { LighterAccount } from './lighter-accounts';
import { heldOrderIndex, isClientOrderIndex } from './lighter-indices';
import { inProgressView } from './lighter-order-views';
import type { CreateOrderTx } from './lighter-tx';

const MAX_REMEMBERED = 10_000;

/** A create-order transaction the venue took and its sequencer executes later (`order_queue=held`). */
export interface HeldOrder extends HeldPlacement {
  lighterAccount: LighterAccount;
  tx: CreateOrderTx;
  type: 'ioc' | 'post_only';
  /** The order index it is shown with while in progress. */
  orderIndex: number;
  /** The engine's client order id it will have. */
  clientOrderId: string;
}

/**
 * The create-order transactions Lighter took and has not executed
 * (`order_queue=held`). Each is shown `in-progress` by an order index of its
 * own, which the order keeps once executed (`keepOrderIndex`); a cancel
 * naming that index reaches the order either way (`named`).
 */
export class LighterHeldOrders {
  private seq = 0;
  private readonly held: HeldPlacements<HeldOrder>;
  private readonly indices = new Map<number, { wallet: string; clientOrderId: string }>();

  constructor(
    private readonly world: () => Simulator,
    frozen: () => boolean,
    execute: (held: HeldOrder) => void,
  ) {
    this.held = new HeldPlacements(world, frozen, execute);
  }

  hold(
    account: LighterAccount,
    tx: CreateOrderTx,
    type: 'ioc' | 'post_only',
    clientOrderId: string,
    ms: number,
  ): void {
    this.seq += 1;
    const orderIndex = heldOrderIndex(this.seq);
    this.indices.set(orderIndex, { wallet: account.wallet, clientOrderId });
    if (this.indices.size > MAX_REMEMBERED) {
      this.indices.delete(this.indices.keys().next().value as number);
    }
    const placement = { id: String(orderIndex), account: account.wallet, world: this.world() };
    this.held.hold(
      {
        ...placement,
        ...{ heldAtMs: Date.now(), cancelAfter: false, lighterAccount: account },
        ...{ tx, type, orderIndex, clientOrderId },
      },
      ms,
    );
  }

  /** The held order a cancel's index names (its client order index, or the index it is shown with). */
  of(wallet: string, index: number): HeldOrder | undefined {
    if (isClientOrderIndex(index)) {
      return this.byClientIndex(wallet, index);
    }
    const held = this.held.get(String(index));
    return held?.account === wallet ? held : undefined;
  }

  byClientIndex(wallet: string, clientOrderIndex: number): HeldOrder | undefined {
    if (clientOrderIndex === 0) {
      return undefined;
    }
    return this.held.find(
      (held) => held.account === wallet && held.tx.clientOrderIndex === clientOrderIndex,
    );
  }

  /** The engine order an index shown while in progress names (it keeps naming it after). */
  named(index: number): { wallet: string; clientOrderId: string } | undefined {
    return this.indices.get(index);
  }

  /** The account's orders in progress on a market, as its active orders show them. */
  inProgress(wallet: string, market: MarketState, marketIndex: number) {
    return this.held
      .ofAccount(wallet)
      .filter((held) => held.tx.marketIndex === marketIndex)
      .map((held) =>
        inProgressView({
          orderIndex: held.orderIndex,
          account: held.lighterAccount.index,
          wallet: held.account,
          market,
          tx: held.tx,
          createdMs: held.heldAtMs,
        }),
      );
  }

  close(): void {
    this.held.close();
  }
}
