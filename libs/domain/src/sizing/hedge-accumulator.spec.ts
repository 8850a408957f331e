import type Big from 'big.js';
import fc from 'fast-check';
import { isMultipleOf } from '../decimal/decimal-math';
import { big, legRules } from '../testing/fixtures';
import {
  HedgeAccountingError,
  type HedgeAccumulator,
  emptyHedgeAccumulator,
  hedgeToSend,
  recordHedgeResult,
  recordHedgeSent,
  recordMakerFill,
  residualUnhedged,
  unhedgedSize,
} from './hedge-accumulator';

/** Hedge venue: lot 0.01, min 0.05, min notional 10 USD. */
const hedgeVenue = legRules({ tick: '0.5', lot: '0.01', minSize: '0.05', minNotional: '10' });
const H = big('100');

const text = (acc: HedgeAccumulator) => ({
  makerFilled: acc.makerFilled.toFixed(),
  hedged: acc.hedged.toFixed(),
  inFlight: acc.inFlight.toFixed(),
});

describe('hedge accumulator', () => {
  it('accumulates partial maker fills below the hedge minimum, then hedges them together', () => {
    let acc = recordMakerFill(emptyHedgeAccumulator(), big('0.04'));
    expect(hedgeToSend(acc, hedgeVenue, H)).toBeNull();
    acc = recordMakerFill(acc, big('0.035'));
    // 0.075 unhedged: 0.07 on the hedge lot, meets 0.05 and 7 USD < 10 USD min notional.
    expect(hedgeToSend(acc, hedgeVenue, H)).toBeNull();
    acc = recordMakerFill(acc, big('0.03'));
    const size = hedgeToSend(acc, hedgeVenue, H) as Big;
    expect(size.toFixed()).toBe('0.1');
    acc = recordHedgeSent(acc, size);
    expect(text(acc)).toEqual({ makerFilled: '0.105', hedged: '0', inFlight: '0.1' });
    expect(unhedgedSize(acc).toFixed()).toBe('0.005');
  });

  it('returns what a hedge did not fill to the unhedged size, for a retry', () => {
    let acc = recordMakerFill(emptyHedgeAccumulator(), big('0.3'));
    acc = recordHedgeSent(acc, big('0.3'));
    acc = recordHedgeResult(acc, { requested: big('0.3'), filled: big('0.12') });
    expect(text(acc)).toEqual({ makerFilled: '0.3', hedged: '0.12', inFlight: '0' });
    expect(hedgeToSend(acc, hedgeVenue, H)?.toFixed()).toBe('0.18');
    acc = recordHedgeSent(acc, big('0.18'));
    acc = recordHedgeResult(acc, { requested: big('0.18'), filled: big('0.18') });
    expect(residualUnhedged(acc).toFixed()).toBe('0');
  });

  it('accumulates a retry remainder below the hedge minimum with later maker fills', () => {
    let acc = recordMakerFill(emptyHedgeAccumulator(), big('0.2'));
    acc = recordHedgeSent(acc, big('0.2'));
    acc = recordHedgeResult(acc, { requested: big('0.2'), filled: big('0.12') });
    // 0.08 at 100 is 8 USD, under the 10 USD minimum: no order the venue would take.
    expect(hedgeToSend(acc, hedgeVenue, H)).toBeNull();
    acc = recordMakerFill(acc, big('0.05'));
    expect(hedgeToSend(acc, hedgeVenue, H)?.toFixed()).toBe('0.13');
  });

  it('reports what never reached the minimum as residual_unhedged', () => {
    const acc = recordMakerFill(emptyHedgeAccumulator(), big('0.03'));
    expect(residualUnhedged(acc).toFixed()).toBe('0.03');
  });

  it('refuses to hedge more than is unhedged, or to misreport a hedge', () => {
    const acc = recordMakerFill(emptyHedgeAccumulator(), big('0.1'));
    const sent = recordHedgeSent(acc, big('0.06'));
    expect(() => recordHedgeSent(sent, big('0.05'))).toThrow(HedgeAccountingError);
    expect(() => recordHedgeSent(acc, big('0'))).toThrow(HedgeAccountingError);
    expect(() => recordHedgeResult(sent, { requested: big('0.07'), filled: big('0') })).toThrow(
      HedgeAccountingError,
    );
    expect(() => recordHedgeResult(sent, { requested: big('0.06'), filled: big('0.061') })).toThrow(
      HedgeAccountingError,
    );
    expect(() => recordMakerFill(acc, big('-0.01'))).toThrow(HedgeAccountingError);
    expect(() => residualUnhedged(sent)).toThrow('still in flight');
  });
});

type Step =
  | { op: 'fill'; lots: number }
  | { op: 'hedge' }
  | { op: 'resolve'; index: number; filledPermille: number }
  | { op: 'overHedge'; extraLots: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('fill' as const), lots: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('hedge' as const) }),
  fc.record({
    op: fc.constant('resolve' as const),
    index: fc.nat(),
    filledPermille: fc.integer({ min: 0, max: 1000 }),
  }),
  fc.record({ op: fc.constant('overHedge' as const), extraLots: fc.integer({ min: 1, max: 5 }) }),
);

describe('hedge accumulator properties', () => {
  it('hedged size never exceeds filled size under any sequence of partial fills and hedges', () => {
    const makerLot = big('0.001');
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let acc = emptyHedgeAccumulator();
        let open: Big[] = [];
        for (const s of steps) {
          if (s.op === 'fill') {
            acc = recordMakerFill(acc, makerLot.times(s.lots));
          }
          if (s.op === 'hedge') {
            const size = hedgeToSend(acc, hedgeVenue, H);
            if (size !== null) {
              expect(isMultipleOf(size, hedgeVenue.lotSize) && size.gte(hedgeVenue.minSize)).toBe(
                true,
              );
              acc = recordHedgeSent(acc, size);
              open = [...open, size];
            }
          }
          if (s.op === 'resolve' && open.length > 0) {
            const i = s.index % open.length;
            const requested = open[i];
            const filled = requested.times(s.filledPermille).div(1000).round(2, 0);
            acc = recordHedgeResult(acc, { requested, filled });
            open = open.filter((_, j) => j !== i);
          }
          if (s.op === 'overHedge') {
            const tooMuch = unhedgedSize(acc).plus(makerLot.times(s.extraLots));
            expect(() => recordHedgeSent(acc, tooMuch)).toThrow(HedgeAccountingError);
          }
          expect(acc.hedged.plus(acc.inFlight).lte(acc.makerFilled)).toBe(true);
          expect(acc.hedged.gte(0) && acc.inFlight.gte(0)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
