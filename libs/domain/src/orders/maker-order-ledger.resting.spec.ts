import Big from 'big.js';
import { MakerOrderLedger } from './maker-order-ledger';

/** What the ledger may have resting at a price: in decimals, and in whole units of a scale. */
describe('MakerOrderLedger resting size at a price', () => {
  const rests = (filled: string) => ({ closed: false, filledSize: new Big(filled) });

  it('gives in units what restingAt gives in decimals', () => {
    const ledger = new MakerOrderLedger(() => 0);
    ledger.placing('q1', new Big('100.5'), new Big('0.25'));
    ledger.report('q1', rests('0.05'));
    ledger.placing('q2', new Big('100.50'), new Big('0.1'), 'q1');
    ledger.placing('q3', new Big('99'), new Big('3'));
    expect(ledger.restingAt(new Big('100.5')).toString()).toBe('0.3');
    expect(ledger.restingUnitsAt(new Big('100.5'), 2)).toBe(30);
    expect(ledger.restingUnitsAt(new Big('99'), 3)).toBe(3_000);
    expect(ledger.restingUnitsAt(new Big('101'), 0)).toBe(0);
  });

  it('leaves closed orders out', () => {
    const ledger = new MakerOrderLedger(() => 0);
    ledger.placing('q1', new Big('100'), new Big('1'));
    ledger.report('q1', { closed: true, filledSize: new Big(0) });
    expect(ledger.restingUnitsAt(new Big('100'), 0)).toBe(0);
  });

  it('cannot tell in units a size with more places than the scale, or past a double', () => {
    const ledger = new MakerOrderLedger(() => 0);
    ledger.placing('q1', new Big('100'), new Big('0.125'));
    expect(ledger.restingUnitsAt(new Big('100'), 2)).toBeNull();
    ledger.placing('q2', new Big('200'), new Big('1e20'));
    expect(ledger.restingUnitsAt(new Big('200'), 0)).toBeNull();
  });

  it('moves its revision with every change that can change what rests', () => {
    const ledger = new MakerOrderLedger(() => 0);
    const seen = [ledger.revision];
    const changed = (): void => {
      expect(ledger.revision).toBeGreaterThan(seen[seen.length - 1]);
      seen.push(ledger.revision);
    };
    ledger.placing('q1', new Big('100'), new Big('1'));
    changed();
    ledger.report('q1', rests('0.2'));
    changed();
    ledger.fill('q1', new Big('0.3'));
    changed();
    ledger.cancelling('q1');
    changed();
    ledger.report('q1', { closed: true, filledSize: new Big('0.3') });
    changed();
    ledger.obligation(0);
    changed();
    expect(ledger.restingUnitsAt(new Big('100'), 0)).toBe(0);
  });
});
