import type { OrderBook, RestingOrder, Side } from './order-book';

export interface IncomingOrder {
  owner: string;
  side: Side;
  /** Worst price the order accepts. */
  limitTicks: number;
  lots: number;
}

export interface Match {
  maker: RestingOrder;
  priceTicks: number;
  lots: number;
}

export interface MatchResult {
  filledLots: number;
  matches: Match[];
  /** Own resting orders the incoming order would have traded with; canceled (self-trade prevention). */
  selfTradeCanceled: RestingOrder[];
}

export const crosses = (side: Side, limitTicks: number, restingTicks: number): boolean =>
  side === 'buy' ? restingTicks <= limitTicks : restingTicks >= limitTicks;

/**
 * Walks the opposite side of the book by price, then time, filling the
 * incoming order up to its limit price and size. Trades print at the resting
 * order's price. An incoming order that meets its owner's own resting order
 * cancels the resting one (expire-maker self-trade prevention) and goes on.
 */
export function matchIncoming(book: OrderBook, incoming: IncomingOrder): MatchResult {
  const opposite = book.opposite(incoming.side);
  const result: MatchResult = { filledLots: 0, matches: [], selfTradeCanceled: [] };
  let remaining = incoming.lots;
  while (remaining > 0) {
    const level = opposite.best();
    if (!level || !crosses(incoming.side, incoming.limitTicks, level.priceTicks)) {
      break;
    }
    const maker = level.orders[0];
    if (maker.owner === incoming.owner) {
      book.cancel(maker.orderId);
      result.selfTradeCanceled.push(maker);
      continue;
    }
    const lots = Math.min(remaining, maker.remainingLots);
    book.fill(maker, lots);
    remaining -= lots;
    result.filledLots += lots;
    result.matches.push({ maker, priceTicks: level.priceTicks, lots });
  }
  return result;
}

/** True when a post-only order at this price would take liquidity. */
export function wouldCross(book: OrderBook, side: Side, limitTicks: number): boolean {
  const best = book.opposite(side).best();
  return best !== undefined && crosses(side, limitTicks, best.priceTicks);
}
