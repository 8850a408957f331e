import type { MarketState } from '../../engine/market-state';

const BOOK_LEVELS = 50;

/** One side of a book as the venue sends it: price → size. */
type Levels = Map<string, string>;

type WireLevel = { price: string; size: string };

/** A socket's subscription to a market's book. */
export interface BookSubscription {
  market: MarketState;
  /** What this socket was last told of each side: price → size. */
  bids: Levels;
  asks: Levels;
}

export function levelsOf(market: MarketState, side: 'bids' | 'asks'): Levels {
  const levels: Levels = new Map();
  for (const level of market.book[side].top(BOOK_LEVELS)) {
    levels.set(market.price.format(level.priceTicks), market.lot.format(level.totalLots));
  }
  return levels;
}

/** Both sides of a subscription as the levels of a snapshot. */
export const wireLevels = ({ asks, bids }: BookSubscription) => ({
  asks: [...asks].map(([price, size]) => ({ price, size })),
  bids: [...bids].map(([price, size]) => ({ price, size })),
});

/**
 * The book now, remembered as what the socket was told; the levels that
 * changed since it was last told (a level gone with size 0), or undefined
 * when none did.
 */
export function nextLevels(
  subscription: BookSubscription,
): { asks: WireLevel[]; bids: WireLevel[] } | undefined {
  const bids = levelsOf(subscription.market, 'bids');
  const asks = levelsOf(subscription.market, 'asks');
  const changedBids = changes(subscription.bids, bids);
  const changedAsks = changes(subscription.asks, asks);
  subscription.bids = bids;
  subscription.asks = asks;
  if (changedBids.length === 0 && changedAsks.length === 0) {
    return undefined;
  }
  return { asks: changedAsks, bids: changedBids };
}

/** An `order_book` frame: a snapshot (`subscribed/order_book`) or an update. */
export function bookFrame(
  id: string | number,
  offset: number,
  { asks, bids }: { asks: WireLevel[]; bids: WireLevel[] },
  type: 'subscribed/order_book' | 'update/order_book',
) {
  return {
    channel: `order_book:${id}`,
    offset,
    order_book: { code: 0, asks, bids, offset, nonce: offset },
    timestamp: Date.now(),
    type,
  };
}

/** The levels that changed from `before` to `after`; a level gone is sent with size 0. */
function changes(before: Levels, after: Levels): WireLevel[] {
  const changed: WireLevel[] = [];
  for (const [price, size] of after) {
    if (before.get(price) !== size) {
      changed.push({ price, size });
    }
  }
  for (const price of before.keys()) {
    if (!after.has(price)) {
      changed.push({ price, size: '0' });
    }
  }
  return changed;
}
