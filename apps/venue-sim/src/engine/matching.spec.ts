import { matchIncoming, wouldCross } from './matching';
import { OrderBook, type RestingOrder, type Side } from './order-book';

const resting = (
  orderId: string,
  owner: string,
  side: Side,
  priceTicks: number,
  lots: number,
): RestingOrder => ({
  orderId,
  owner,
  side,
  priceTicks,
  remainingLots: lots,
});

describe('matchIncoming', () => {
  let book: OrderBook;
  beforeEach(() => {
    book = new OrderBook();
    book.rest(resting('a1', 'house', 'sell', 101, 5));
    book.rest(resting('a2', 'alice', 'sell', 101, 3));
    book.rest(resting('a3', 'house', 'sell', 102, 10));
    book.rest(resting('b1', 'house', 'buy', 99, 4));
    book.drainDelta();
  });

  it('fills by price then time and prints at the resting price', () => {
    const result = matchIncoming(book, { owner: 'bob', side: 'buy', limitTicks: 102, lots: 9 });
    expect(result.matches.map((m) => [m.maker.orderId, m.priceTicks, m.lots])).toEqual([
      ['a1', 101, 5],
      ['a2', 101, 3],
      ['a3', 102, 1],
    ]);
    expect(book.asks.best()?.priceTicks).toBe(102);
    expect(book.asks.best()?.totalLots).toBe(9);
    expect(book.drainDelta()).toEqual({
      seq: 2,
      bids: [],
      asks: [
        [101, 0],
        [102, 9],
      ],
    });
  });

  it('stops at the limit price and leaves the rest unfilled', () => {
    const result = matchIncoming(book, { owner: 'bob', side: 'buy', limitTicks: 101, lots: 20 });
    expect(result.filledLots).toBe(8);
    expect(book.asks.best()?.priceTicks).toBe(102);
  });

  it('fills a resting order partially, keeping its place in the queue', () => {
    matchIncoming(book, { owner: 'bob', side: 'buy', limitTicks: 101, lots: 6 });
    const level = book.asks.best();
    expect(level?.orders.map((o) => [o.orderId, o.remainingLots])).toEqual([['a2', 2]]);
  });

  it("cancels the taker's own resting order instead of trading with it", () => {
    const result = matchIncoming(book, { owner: 'alice', side: 'buy', limitTicks: 101, lots: 8 });
    expect(result.selfTradeCanceled.map((o) => o.orderId)).toEqual(['a2']);
    expect(result.filledLots).toBe(5);
    expect(book.get('a2')).toBeUndefined();
  });

  it('tells whether a post-only price would cross', () => {
    expect(wouldCross(book, 'buy', 101)).toBe(true);
    expect(wouldCross(book, 'buy', 100)).toBe(false);
    expect(wouldCross(book, 'sell', 99)).toBe(true);
    expect(wouldCross(book, 'sell', 100)).toBe(false);
  });
});
