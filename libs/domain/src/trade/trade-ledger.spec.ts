import {
  applyEntry,
  countedFills,
  emptyLedger,
  foldEntries,
  ledgerFilled,
  type LedgerEntry,
} from './trade-ledger';

const makerFill = (fillId: string, price: string, size: string): LedgerEntry => ({
  eventType: 'maker_fill',
  data: { fill_id: fillId, price, size, timestamp_ms: 1_700_000_000_000 },
});
const hedgeFilled = (orderId: string, size: string): LedgerEntry => ({
  eventType: 'hedge_filled',
  data: { order_id: orderId, size },
});
const outcome = (result: 'filled' | 'timeout' | 'rejected'): LedgerEntry => ({
  eventType: 'hedge_outcome',
  data: { result, exchange: 'paradex' },
});

describe('the trade ledger (the fold of the execution log)', () => {
  it('counts a maker fill once by its fill id, in both size types', () => {
    const ledger = foldEntries([
      makerFill('f1', '100', '0.5'),
      makerFill('f2', '102', '0.25'),
      makerFill('f1', '100', '0.5'),
    ]);
    expect(ledger.makerFills.map((fill) => fill.fillId)).toEqual(['f1', 'f2']);
    expect(ledgerFilled(ledger, 'base').toFixed()).toBe('0.75');
    expect(ledgerFilled(ledger, 'notional').toFixed()).toBe('75.5');
    expect(ledger.entries).toBe(3);
  });

  it('counts a hedge order once by its order id', () => {
    const ledger = foldEntries([
      hedgeFilled('o1', '0.3'),
      hedgeFilled('o2', '0.2'),
      hedgeFilled('o1', '0.3'),
    ]);
    expect(ledger.hedged.toFixed()).toBe('0.5');
  });

  it('keeps the first hedge that failed the trade', () => {
    const ledger = foldEntries([outcome('filled'), outcome('rejected'), outcome('timeout')]);
    expect(ledger.hedgeFailure).toEqual({ result: 'rejected', exchange: 'paradex' });
  });

  it('never changes the ledger it is given', () => {
    const before = foldEntries([makerFill('f1', '100', '1')]);
    const after = applyEntry(before, makerFill('f2', '100', '2'));
    expect(before.makerFilled.toFixed()).toBe('1');
    expect(before.fillIds.has('f2')).toBe(false);
    expect(after.makerFilled.toFixed()).toBe('3');
  });

  it('marks the chunk started and completed', () => {
    const started = applyEntry(emptyLedger(), { eventType: 'chunk_started', data: {} });
    expect([started.chunkStarted, started.chunkCompleted]).toEqual([true, false]);
    const ended = applyEntry(started, { eventType: 'chunk_completed', data: {} });
    expect(ended.chunkCompleted).toBe(true);
  });

  it('counts each fill once for every reader, the first entry of it', () => {
    const first = makerFill('f1', '100', '0.5');
    const again = makerFill('f1', '100', '0.5');
    const hedge = hedgeFilled('o1', '0.5');
    const counted = countedFills([
      first,
      outcome('filled'),
      again,
      hedge,
      hedgeFilled('o1', '0.5'),
    ]);
    expect(counted).toEqual([first, hedge]);
    expect(counted[0]).toBe(first);
  });
});
