import Big from 'big.js';
import { MakerOrderLedger } from './maker-order-ledger';

/** The ledger's quoting activity: time with an order out, and the requests that moved it. */
describe('MakerOrderLedger activity', () => {
  let nowMs: number;
  let ledger: MakerOrderLedger;
  const at = (ms: number): void => {
    nowMs = ms;
  };
  const rests = { closed: false, filledSize: new Big(0) };
  const closed = { closed: true, filledSize: new Big(0) };

  beforeEach(() => {
    nowMs = 1_000;
    ledger = new MakerOrderLedger(() => nowMs);
  });

  it('counts the time from a placement until the order is known closed', () => {
    ledger.placing('q1', new Big(100), new Big(1));
    at(1_400);
    ledger.report('q1', rests);
    at(3_000);
    expect(ledger.activity()).toEqual({ quotedMs: 2_000, placed: 1, replaced: 0, canceled: 0 });
    ledger.cancelling('q1');
    at(3_250);
    ledger.report('q1', closed);
    at(10_000);
    expect(ledger.activity()).toEqual({ quotedMs: 2_250, placed: 1, replaced: 0, canceled: 1 });
  });

  it('keeps one spell across a replace, whose two orders overlap', () => {
    ledger.placing('q1', new Big(100), new Big(1));
    ledger.report('q1', rests);
    at(2_000);
    ledger.placing('q2', new Big(101), new Big(1), 'q1');
    ledger.replaced('q1', closed, 'q2', rests);
    at(5_000);
    ledger.fill('q2', new Big(1));
    at(9_000);
    expect(ledger.activity()).toEqual({ quotedMs: 4_000, placed: 2, replaced: 1, canceled: 0 });
  });

  it('counts an order in doubt as out until a look-up proves it never placed', () => {
    ledger.placing('q1', new Big(100), new Big(1));
    ledger.answerLost(['q1'], 1_000, 1_500);
    at(1_200);
    expect(ledger.notFound('q1', 1_200)).toBe('undecided');
    at(1_600);
    expect(ledger.notFound('q1', 1_600)).toBe('never_placed');
    at(4_000);
    expect(ledger.activity().quotedMs).toBe(600);
  });

  it('adds the spells of orders out one after another, not the time between', () => {
    ledger.placing('q1', new Big(100), new Big(1));
    at(1_100);
    ledger.refused('q1');
    at(2_000);
    ledger.placing('q2', new Big(100), new Big(1));
    at(2_300);
    ledger.report('q2', closed);
    expect(ledger.activity()).toEqual({ quotedMs: 400, placed: 2, replaced: 0, canceled: 0 });
  });
});
