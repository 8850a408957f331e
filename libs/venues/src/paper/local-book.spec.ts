import Big from 'big.js';
import fc from 'fast-check';
import { LocalBook } from './local-book';
import type { WireLevel } from './protocol';

/** Prices of one book: near each other, some past a double's 15 digits, some with trailing zeros. */
const priceArb = fc
  .tuple(
    fc.constantFrom('64123', '0.000123', '99999999999999', '1'),
    fc.integer({ min: 0, max: 30 }),
    fc.constantFrom('', '0', '00', '0000000000000001'),
  )
  .map(([stem, offset, tail]) => `${stem}${stem.includes('.') ? '' : '.'}${offset}${tail}`);
const sizeArb = fc.constantFrom('0', '0.000', '1', '2.5', '0.0001');
const levelsArb = fc.array(fc.tuple(priceArb, sizeArb), { maxLength: 12 });

/** The book as a list of price levels kept by Big: the last size of each price, zero removing it. */
function modelSide(updates: WireLevel[][], bids: boolean): Array<{ price: Big; size: string }> {
  const levels: Array<{ price: Big; size: string }> = [];
  for (const [text, size] of updates.flat()) {
    const price = new Big(text);
    const at = levels.findIndex((level) => level.price.eq(price));
    if (new Big(size).eq(0)) {
      if (at >= 0) {
        levels.splice(at, 1);
      }
    } else if (at >= 0) {
      levels[at].size = size;
    } else {
      levels.push({ price, size });
    }
  }
  return levels.sort((a, b) => (bids ? b.price.cmp(a.price) : a.price.cmp(b.price)));
}

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

  it('keeps each side in price order as decimals, for prices of any length', () => {
    fc.assert(
      fc.property(
        levelsArb,
        fc.array(fc.tuple(levelsArb, levelsArb), { maxLength: 6 }),
        (bids, deltas) => {
          const book = new LocalBook('paradex', 'BTC-USD-PERP', 'BTC', 100);
          book.snapshot(0, bids, []);
          deltas.forEach(([bidLevels, askLevels], i) => book.delta(i + 1, bidLevels, askLevels));
          const view = book.view(0);
          const side = (levels: Array<{ price: string; size: string }>) =>
            levels.map((level) => ({ price: new Big(level.price).toFixed(), size: level.size }));
          const model = (updates: WireLevel[][], isBids: boolean) =>
            modelSide(updates, isBids).map((level) => ({
              price: level.price.toFixed(),
              size: level.size,
            }));
          expect(side(view.bids)).toEqual(model([bids, ...deltas.map(([b]) => b)], true));
          expect(side(view.asks)).toEqual(
            model(
              deltas.map(([, a]) => a),
              false,
            ),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('ignores a delta already applied and reports a gap in the sequence', () => {
    const book = new LocalBook('aster', 'BTCUSDT', 'BTC', 5);
    book.snapshot(3, [['10', '1']], [['11', '1']]);
    expect(book.delta(3, [['10', '0']], [])).toBe('stale');
    expect(book.view(0).bestBid).toBe('10');
    expect(book.delta(5, [], [])).toBe('gap');
  });
});
