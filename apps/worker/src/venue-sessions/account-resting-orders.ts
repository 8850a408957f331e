import Big from 'big.js';
import { compare, signOf } from '@sts/domain';
import { isResting, type OrderSide, type VenueOrder } from '@sts/venues';

interface RestingEntry {
  side: OrderSide;
  price: Big;
  remaining: Big;
}

const ZERO = new Big(0);

/**
 * The account's orders resting on the venue as its order stream tells them,
 * by symbol: what the account itself shows in the public book, whichever of
 * its trades (on this worker or another) placed them. A trade leaves them out
 * of the touch it quotes and marks on, as it leaves out its own. Forgotten
 * when the stream drops (an order closed meanwhile would otherwise count
 * for ever); the next update of each order brings it back.
 */
export class AccountRestingOrders {
  private readonly bySymbol = new Map<string, Map<string, RestingEntry>>();

  /** An order update of the account's stream. */
  note(order: VenueOrder): void {
    const orders = this.bySymbol.get(order.symbol);
    if (!isResting(order)) {
      orders?.delete(order.clientOrderId);
      return;
    }
    const entry: RestingEntry = {
      side: order.side,
      price: new Big(order.price),
      // A re-quote's orders have mostly filled nothing: their size is what remains, one Big.
      remaining:
        order.filledSize === '0'
          ? new Big(order.size)
          : new Big(order.size).minus(order.filledSize),
    };
    if (orders) {
      orders.set(order.clientOrderId, entry);
    } else {
      this.bySymbol.set(order.symbol, new Map([[order.clientOrderId, entry]]));
    }
  }

  forgetAll(): void {
    this.bySymbol.clear();
  }

  /** Whether any order of the account rests on one side of `symbol`, but those `skip` names. */
  anyResting(symbol: string, side: OrderSide, skip: (clientOrderId: string) => boolean): boolean {
    for (const [clientOrderId, entry] of this.bySymbol.get(symbol) ?? []) {
      if (entry.side === side && signOf(entry.remaining) > 0 && !skip(clientOrderId)) {
        return true;
      }
    }
    return false;
  }

  /** The account's resting size at `price` on one side of `symbol`, but the orders `skip` names. */
  restingAt(
    symbol: string,
    side: OrderSide,
    price: Big,
    skip: (clientOrderId: string) => boolean,
  ): Big {
    let resting = ZERO;
    for (const [clientOrderId, entry] of this.bySymbol.get(symbol) ?? []) {
      if (entry.side === side && compare(entry.price, price) === 0 && !skip(clientOrderId)) {
        resting = resting.plus(entry.remaining);
      }
    }
    return resting;
  }
}
