import { LocalBook } from './local-book';

describe('LocalBook', () => {
  it('rebuilds the book from a snapshot and sequenced deltas, best first', () => {
    const book = new LocalBook('paradex', 'BTC-USD-PERP', 'BTC', 2);
    book.snapshot(
      10,
      [
        ['100', '1'],
        ['99.5', '2'],
      ],
      [
        ['101', '3'],
        ['102', '1'],
      ],
    );
    expect(
      book.delta(
        11,
        [
          ['100.5', '0.4'],
          ['100', '0'],
        ],
        [['101', '2.5']],
      ),
    ).toBe('applied');
    expect(book.view(1)).toEqual({
      exchange: 'paradex',
      symbol: 'BTC-USD-PERP',
      market: 'BTC',
      seq: 11,
      bestBid: '100.5',
      bestAsk: '101',
      bids: [
        { price: '100.5', size: '0.4' },
        { price: '99.5', size: '2' },
      ],
      asks: [
        { price: '101', size: '2.5' },
        { price: '102', size: '1' },
      ],
      timestampMs: 1,
    });
  });

  it('ignores a delta already applied and reports a gap in the sequence', () => {
    const book = new LocalBook('aster', 'BTCUSDT', 'BTC', 5);
    book.snapshot(3, [['10', '1']], [['11', '1']]);
    expect(book.delta(3, [['10', '0']], [])).toBe('stale');
    expect(book.view(0).bestBid).toBe('10');
    expect(book.delta(5, [], [])).toBe('gap');
  });
});
