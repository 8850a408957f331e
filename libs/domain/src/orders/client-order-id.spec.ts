import fc from 'fast-check';
import {
  CLIENT_ORDER_ID_LENGTH,
  type ClientOrderCause,
  InvalidClientOrderCauseError,
  MAX_HEDGE_ATTEMPT,
  PARTIAL_TAG_LENGTH,
  clientOrderId,
  hedgeAttemptFor,
  makerFillHash,
  matchClientOrderId,
  parseClientOrderId,
  parsePartialClientOrderId,
  partialClientOrderId,
  tradeTag,
} from './client-order-id';

const TRADE = '6f1c2a4e-8a47-4c1e-9a3b-2f0d5e7c9b10';
const OTHER = '0b6f8d7e-1c2a-4f3b-8e9d-7a6c5b4d3e21';

describe('client order ids', () => {
  it('are pinned: a new release must map the orders of an old one back to their trades', () => {
    expect(clientOrderId(TRADE, { kind: 'maker', quoteNumber: 1 })).toBe(
      'fb8e76d74a5dbcfca000000000000001',
    );
    expect(clientOrderId(TRADE, { kind: 'maker', quoteNumber: 255 })).toBe(
      'fb8e76d74a5dbcfca0000000000000ff',
    );
    expect(clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'fill-42', attempt: 1 })).toBe(
      'fb8e76d74a5dbcfcbfac8c99d944e001',
    );
    expect(clientOrderId(TRADE, { kind: 'unwind', attempt: 1 })).toBe(
      'fb8e76d74a5dbcfcc000000000000001',
    );
  });

  it('fit a 16-byte Hyperliquid cloid and every 32 to 36 character cap', () => {
    const id = clientOrderId(TRADE, {
      kind: 'hedge',
      makerFillId: 'x'.repeat(500),
      attempt: MAX_HEDGE_ATTEMPT,
    });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).toHaveLength(CLIENT_ORDER_ID_LENGTH);
  });

  it('parse back to the trade and what caused the order', () => {
    const maker = clientOrderId(TRADE, { kind: 'maker', quoteNumber: 12345 });
    expect(parseClientOrderId(maker)).toEqual({
      tradeTag: tradeTag(TRADE),
      kind: 'maker',
      quoteNumber: 12345,
    });
    const hedge = clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'fill-42', attempt: 3 });
    expect(matchClientOrderId(`0x${hedge.toUpperCase()}`, TRADE)).toEqual({
      tradeTag: tradeTag(TRADE),
      kind: 'hedge',
      makerFillHash: makerFillHash(TRADE, 'fill-42'),
      attempt: 3,
    });
    expect(hedgeAttemptFor(hedge, TRADE, 'fill-42')).toBe(3);
    expect(hedgeAttemptFor(hedge, TRADE, 'fill-43')).toBeNull();
    expect(hedgeAttemptFor(maker, TRADE, 'fill-42')).toBeNull();
    const unwind = clientOrderId(TRADE, { kind: 'unwind', attempt: 2 });
    expect(matchClientOrderId(unwind, TRADE)).toEqual({
      tradeTag: tradeTag(TRADE),
      kind: 'unwind',
      attempt: 2,
    });
    expect(hedgeAttemptFor(unwind, TRADE, 'fill-42')).toBeNull();
  });

  it('do not match another trade, and foreign ids parse to null', () => {
    const maker = clientOrderId(TRADE, { kind: 'maker', quoteNumber: 1 });
    expect(matchClientOrderId(maker, OTHER)).toBeNull();
    expect(
      hedgeAttemptFor(
        clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'f', attempt: 1 }),
        OTHER,
        'f',
      ),
    ).toBeNull();
    for (const foreign of [
      '',
      'abc',
      'web-order-1',
      `${'0'.repeat(16)}c${'0'.repeat(15)}`,
      `${'0'.repeat(16)}b${'0'.repeat(15)}`,
      'g'.repeat(32),
    ]) {
      expect(parseClientOrderId(foreign)).toBeNull();
    }
  });

  it('refuse causes they cannot encode', () => {
    const bad: ClientOrderCause[] = [
      { kind: 'maker', quoteNumber: -1 },
      { kind: 'maker', quoteNumber: 1.5 },
      { kind: 'maker', quoteNumber: Number.MAX_SAFE_INTEGER + 1 },
      { kind: 'hedge', makerFillId: '', attempt: 1 },
      { kind: 'hedge', makerFillId: 'f', attempt: 0 },
      { kind: 'hedge', makerFillId: 'f', attempt: MAX_HEDGE_ATTEMPT + 1 },
      { kind: 'unwind', attempt: 0 },
      { kind: 'unwind', attempt: MAX_HEDGE_ATTEMPT + 1 },
    ];
    for (const cause of bad) {
      expect(() => clientOrderId(TRADE, cause)).toThrow(InvalidClientOrderCauseError);
    }
    expect(() => clientOrderId('', { kind: 'maker', quoteNumber: 1 })).toThrow(
      InvalidClientOrderCauseError,
    );
  });
});

const cause: fc.Arbitrary<ClientOrderCause> = fc.oneof(
  fc.record({
    kind: fc.constant('maker' as const),
    quoteNumber: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  }),
  fc.record({
    kind: fc.constant('hedge' as const),
    makerFillId: fc.string({ minLength: 1, maxLength: 80 }),
    attempt: fc.integer({ min: 1, max: MAX_HEDGE_ATTEMPT }),
  }),
  fc.record({
    kind: fc.constant('unwind' as const),
    attempt: fc.integer({ min: 1, max: MAX_HEDGE_ATTEMPT }),
  }),
);

const sameCause = (a: ClientOrderCause, b: ClientOrderCause): boolean => {
  switch (a.kind) {
    case 'maker':
      return b.kind === 'maker' && a.quoteNumber === b.quoteNumber;
    case 'hedge':
      return b.kind === 'hedge' && a.makerFillId === b.makerFillId && a.attempt === b.attempt;
    case 'unwind':
      return b.kind === 'unwind' && a.attempt === b.attempt;
  }
};

describe('client order id properties', () => {
  it('round-trip: every id parses back to its trade and cause', () => {
    fc.assert(
      fc.property(fc.uuid(), cause, (tradeId, c) => {
        const id = clientOrderId(tradeId, c);
        expect(id).toHaveLength(CLIENT_ORDER_ID_LENGTH);
        const parsed = matchClientOrderId(id, tradeId);
        if (c.kind === 'maker') {
          expect(parsed).toEqual({
            tradeTag: tradeTag(tradeId),
            kind: 'maker',
            quoteNumber: c.quoteNumber,
          });
        } else if (c.kind === 'unwind') {
          expect(parsed).toEqual({
            tradeTag: tradeTag(tradeId),
            kind: 'unwind',
            attempt: c.attempt,
          });
        } else {
          expect(hedgeAttemptFor(id, tradeId, c.makerFillId)).toBe(c.attempt);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never collide across leg, cause and attempt, nor across trades', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 3 }),
        fc.array(cause, { minLength: 2, maxLength: 60 }),
        (trades, causes) => {
          const seen = new Map<string, [string, ClientOrderCause]>();
          for (const tradeId of trades) {
            for (const c of causes) {
              const id = clientOrderId(tradeId, c);
              const before = seen.get(id);
              if (before) {
                expect(before[0] === tradeId && sameCause(before[1], c)).toBe(true);
              }
              seen.set(id, [tradeId, c]);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hedges of one fill differ per attempt; maker ids differ per quote', () => {
    const ids = new Set<string>();
    for (let attempt = 1; attempt <= MAX_HEDGE_ATTEMPT; attempt += 1) {
      ids.add(clientOrderId(TRADE, { kind: 'hedge', makerFillId: 'fill-1', attempt }));
    }
    for (let quoteNumber = 0; quoteNumber < 5000; quoteNumber += 1) {
      ids.add(clientOrderId(TRADE, { kind: 'maker', quoteNumber }));
    }
    expect(ids.size).toBe(MAX_HEDGE_ATTEMPT + 5000);
  });
});

describe('partial client order ids (what a narrow venue index keeps)', () => {
  const prefix = tradeTag(TRADE).slice(0, PARTIAL_TAG_LENGTH);

  it("match a trade by its tag's first 24 bits, with their kind", () => {
    const maker = partialClientOrderId(prefix, 'maker', '0'.repeat(14) + '1');
    const hedge = partialClientOrderId(prefix, 'hedge', 'abcdef012345678');
    expect(maker).toHaveLength(CLIENT_ORDER_ID_LENGTH);
    expect(matchClientOrderId(maker, TRADE)).toEqual({
      tradeTagPrefix: prefix,
      kind: 'maker',
      partial: true,
    });
    expect(matchClientOrderId(hedge, TRADE)?.kind).toBe('hedge');
    expect(matchClientOrderId(hedge, OTHER)).toBeNull();
    const unwind = partialClientOrderId(prefix, 'unwind', '0'.repeat(14) + '1');
    expect(parsePartialClientOrderId(unwind)).toEqual({
      tradeTagPrefix: prefix,
      kind: 'unwind',
      partial: true,
    });
    expect(matchClientOrderId(unwind, TRADE)?.kind).toBe('unwind');
  });

  it('are never read as whole ids, and say nothing of a hedge attempt', () => {
    const hedge = partialClientOrderId(prefix, 'hedge', 'abcdef012345678');
    expect(parseClientOrderId(hedge)).toBeNull();
    expect(hedgeAttemptFor(hedge, TRADE, 'fill-1')).toBeNull();
    expect(
      parsePartialClientOrderId(clientOrderId(TRADE, { kind: 'maker', quoteNumber: 1 })),
    ).toBeNull();
  });
});
