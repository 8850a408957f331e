import { clientOrderId, matchClientOrderId } from '@sts/domain';
import {
  decodeClientOrderId,
  encodeClientOrderId,
  lighterClientOrderIndex,
} from './client-order-ids';

const TRADE = '6f1c2a4e-8a47-4c1e-9a3b-2f0d5e7c9b10';
const OTHER = '0b6f8d7e-1c2a-4f3b-8e9d-7a6c5b4d3e21';

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

  it('reads nothing from an index that is not one', () => {
    expect(decodeClientOrderId('lighter', 'abc')).toBeUndefined();
    expect(decodeClientOrderId('lighter', String(2 ** 48))).toBeUndefined();
    expect(decodeClientOrderId('lighter', '0')).toBeUndefined();
  });
});
