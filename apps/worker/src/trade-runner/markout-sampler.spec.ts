import Big from 'big.js';
import { foldEntries } from '@sts/domain';
import type { LogEntry } from '@sts/contracts';
import { MarkoutSampler } from './markout-sampler';

const T0 = 1_700_000_000_000;

function sampler(mid: { value: Big | null }, makerSide: 'buy' | 'sell' = 'buy') {
  const logged: LogEntry[] = [];
  const markouts = new MarkoutSampler({
    makerSide,
    mid: () => mid.value,
    apply: (entries) => logged.push(...entries),
    now: () => Date.now(),
  });
  return { markouts, logged };
}

const fill = (fillId: string, timestampMs: number) => ({
  fillId,
  price: new Big(100),
  size: new Big('0.01'),
  timestampMs,
});

describe('markouts of maker fills', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  it('marks a fill at 1, 10 and 60 s with the mid then, signed good for the trader', async () => {
    const mid = { value: new Big(100) as Big | null };
    const { markouts, logged } = sampler(mid);
    markouts.onFill(fill('f1', T0));
    mid.value = new Big('100.05');
    await jest.advanceTimersByTimeAsync(1_000);
    mid.value = new Big('99.9');
    await jest.advanceTimersByTimeAsync(9_000);
    mid.value = new Big(100);
    await jest.advanceTimersByTimeAsync(50_000);
    expect(logged.map((entry) => entry.data)).toEqual([
      { fill_id: 'f1', horizon_s: 1, mid: '100.05', bps: '5' },
      { fill_id: 'f1', horizon_s: 10, mid: '99.9', bps: '-10' },
      { fill_id: 'f1', horizon_s: 60, mid: '100', bps: '0' },
    ]);
    expect(markouts.pending).toBe(0);
  });

  it('signs a maker sell the other way', async () => {
    const { markouts, logged } = sampler({ value: new Big('99.9') }, 'sell');
    markouts.onFill(fill('f1', T0));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(logged[0]?.data).toMatchObject({ horizon_s: 1, bps: '10' });
  });

  it('leaves null what it cannot see: a stale book, a horizon already past, a closed trade', async () => {
    const mid = { value: null as Big | null };
    const { markouts, logged } = sampler(mid);
    // Read back 5 s late: the 1 s horizon has passed and is never taken.
    markouts.onFill(fill('late', T0 - 5_000));
    await jest.advanceTimersByTimeAsync(5_000); // its 10 s horizon, with no fresh book
    expect(logged).toEqual([]);
    mid.value = new Big(100);
    markouts.close();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(logged).toEqual([]);
  });

  it('after a start, marks only the horizons still ahead that nobody logged', async () => {
    const { markouts, logged } = sampler({ value: new Big('100.01') });
    const ledger = foldEntries([
      {
        eventType: 'maker_fill',
        data: { fill_id: 'f1', price: '100', size: '0.01', timestamp_ms: T0 - 2_000 },
      },
      { eventType: 'markout', data: { fill_id: 'f1', horizon_s: 1 } },
      {
        eventType: 'maker_fill',
        data: { fill_id: 'f2', price: '100', size: '0.01', timestamp_ms: T0 - 30_000 },
      },
    ]);
    markouts.resume(ledger);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(logged.map((entry) => entry.data)).toEqual([
      { fill_id: 'f1', horizon_s: 10, mid: '100.01', bps: '1' },
      { fill_id: 'f2', horizon_s: 60, mid: '100.01', bps: '1' },
      { fill_id: 'f1', horizon_s: 60, mid: '100.01', bps: '1' },
    ]);
  });
});
