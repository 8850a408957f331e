import Big from 'big.js';
import type { Side } from './order-book';

export interface PositionState {
  /** Signed size in contract units: positive long, negative short. */
  size: Big;
  entryPrice: Big;
}

export const DEFAULT_COLLATERAL = '1000000';

/**
 * One account's money on one venue: collateral, realised PnL and fees, and a
 * position per market with its average entry. All arithmetic is big.js.
 */
export class Account {
  readonly positions = new Map<string, PositionState>();
  realizedPnl = new Big(0);
  feesPaid = new Big(0);
  /** Funding settled on the account's positions: positive received, negative paid. */
  fundingNet = new Big(0);

  constructor(
    readonly id: string,
    public collateral: Big = new Big(DEFAULT_COLLATERAL),
  ) {}

  applyFill(symbol: string, side: Side, price: Big, size: Big, fee: Big): void {
    this.feesPaid = this.feesPaid.plus(fee);
    const signed = side === 'buy' ? size : size.neg();
    const current = this.positions.get(symbol);
    if (!current || current.size.eq(0)) {
      this.positions.set(symbol, { size: signed, entryPrice: price });
      return;
    }
    const sameDirection = current.size.gt(0) === signed.gt(0);
    if (sameDirection) {
      const total = current.size.abs().plus(size);
      current.entryPrice = current.entryPrice
        .times(current.size.abs())
        .plus(price.times(size))
        .div(total);
      current.size = current.size.plus(signed);
      return;
    }
    const closing = current.size.abs().lt(size) ? current.size.abs() : size;
    const direction = current.size.gt(0) ? 1 : -1;
    this.realizedPnl = this.realizedPnl.plus(
      price.minus(current.entryPrice).times(closing).times(direction),
    );
    current.size = current.size.plus(signed);
    if (current.size.eq(0)) {
      this.positions.delete(symbol);
    } else if (current.size.gt(0) !== direction > 0) {
      current.entryPrice = price;
    }
  }

  settleFunding(amount: Big): void {
    this.fundingNet = this.fundingNet.plus(amount);
  }

  unrealizedPnl(symbol: string, mark: Big): Big {
    const position = this.positions.get(symbol);
    return position ? mark.minus(position.entryPrice).times(position.size) : new Big(0);
  }

  /** Collateral plus realised and unrealised PnL and funding, less fees. */
  equity(marks: ReadonlyMap<string, Big>): Big {
    let equity = this.collateral.plus(this.realizedPnl).minus(this.feesPaid).plus(this.fundingNet);
    for (const symbol of this.positions.keys()) {
      const mark = marks.get(symbol);
      if (mark) {
        equity = equity.plus(this.unrealizedPnl(symbol, mark));
      }
    }
    return equity;
  }
}
