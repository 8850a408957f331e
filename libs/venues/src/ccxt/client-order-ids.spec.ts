import { clientOrderId, matchClientOrderId } from '@sts/domain';
import {
  decodeClientOrderId,
  encodeClientOrderId,
  lighterClientOrderIndex,
} from './client-order-ids';

const TRADE = '6f1c2a4e-8a47-4c1e-9a3b-2f0d5e7c9b10';
const OTHER = '0b6f8d7e-1c2a-4f3b-8e9d-7a6c5b4d3e21';
/** The unwind's index of TRADE: its 24 tag bits (0xfb8e76), the kind bit, no rest. */
const UNWIND_INDEX = 0xfb8e76 * 2 ** 24 + 2 ** 23;

describe("Lighter's client order index (48 bits of a 128-bit id)", () => {
  const maker = clientOrderId(TRADE, { kind: 'maker', quoteNumber: 7 });
  const hedge = clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'fill-1', attempt: 1 });

  it('is pinned: a new release must read the indices of an old one', () => {
    expect(lighterClientOrderIndex(maker)).toBe(276_589_287_299_224);
    expect(encodeClientOrderId('lighter', hedge)).toBe(lighterClientOrderIndex(hedge));
  });

  it('fits in 48 bits and tells the ids of one trade apart', () => {
    const indices = Array.from({ length: 2_000 }, (_, quoteNumber) =>
      lighterClientOrderIndex(clientOrderId(TRADE, { kind: 'maker', quoteNumber })),
    );
    expect(indices.every((index) => Number.isSafeInteger(index) && index < 2 ** 48)).toBe(true);
    expect(new Set(indices).size).toBeGreaterThan(1_990);
  });

  it('names the trade and the kind to a client that never placed the order', () => {
    for (const [id, kind] of [
      [maker, 'maker'],
      [hedge, 'hedge'],
    ] as const) {
      const read = decodeClientOrderId('lighter', String(lighterClientOrderIndex(id)))!;
      expect(matchClientOrderId(read, TRADE)).toMatchObject({ kind, partial: true });
      expect(matchClientOrderId(read, OTHER)).toBeNull();
    }
  });

  it("gives an unwind an index of its own, read back as the trade's unwind, never as a maker order", () => {
    const unwind = clientOrderId(TRADE, { kind: 'unwind', attempt: 1 });
    const index = lighterClientOrderIndex(unwind);
    expect(index).toBe(UNWIND_INDEX);
    expect(encodeClientOrderId('lighter', unwind)).toBe(index);
    const read = decodeClientOrderId('lighter', String(index))!;
    expect(matchClientOrderId(read, TRADE)).toEqual({
      tradeTagPrefix: 'fb8e76',
      kind: 'unwind',
      partial: true,
    });
    expect(matchClientOrderId(read, OTHER)).toBeNull();
    // The trade's maker and hedge orders share its 24 tag bits and still read as their kind.
    for (let n = 0; n < 500; n += 1) {
      for (const [id, kind] of [
        [clientOrderId(TRADE, { kind: 'maker', quoteNumber: n }), 'maker'],
        [clientOrderId(TRADE, { kind: 'hedge', makerFillId: `fill-${n}`, attempt: 1 }), 'hedge'],
      ] as const) {
        const other = lighterClientOrderIndex(id);
        expect(other).not.toBe(index);
        expect(matchClientOrderId(decodeClientOrderId('lighter', String(other))!, TRADE)).toEqual(
          expect.objectContaining({ kind }),
        );
      }
    }
  });

  it("keeps a hedge whose hash falls on the unwind's rest off the unwind's index", () => {
    // sha256 of this hedge id begins with 23 zero bits (found by search).
    const hedge = clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'fill-12386474', attempt: 1 });
    expect(hedge).toBe('fb8e76d74a5dbcfcbeef53608cb7d001');
    const index = lighterClientOrderIndex(hedge);
    expect(index).toBe(UNWIND_INDEX + 1);
    expect(matchClientOrderId(decodeClientOrderId('lighter', String(index))!, TRADE)).toEqual({
      tradeTagPrefix: 'fb8e76',
      kind: 'hedge',
      partial: true,
    });
  });

  it('has room for one unwind a trade', () => {
    expect(() =>
      lighterClientOrderIndex(clientOrderId(TRADE, { kind: 'unwind', attempt: 2 })),
    ).toThrow(RangeError);
  });

  it('reads nothing from an index that is not one', () => {
    expect(decodeClientOrderId('lighter', 'abc')).toBeUndefined();
    expect(decodeClientOrderId('lighter', String(2 ** 48))).toBeUndefined();
    expect(decodeClientOrderId('lighter', '0')).toBeUndefined();
  });
});
