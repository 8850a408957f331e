import type { LogEntry } from '@sts/contracts';
import type { TradeQualityLog } from '@sts/persistence';
import { hedgeOutcome, hedgeSent, makerFill, markout, quotingSpell } from './quality-fixtures';
import { qualityReport } from './quality-report';
import { qualityWindow } from './read-quality-report.use-case';

const T0 = 1_764_000_000_000;
const stored = (tradeId: string, market: string, entries: LogEntry[]): TradeQualityLog => ({
  tradeId,
  market,
  createdAt: new Date(T0 - 500),
  entries: entries.map((entry, index) => ({
    sequence: index + 1,
    entry,
    workerId: 'w-1',
    createdAt: new Date(T0),
  })),
});

describe('the quality report over a window', () => {
  const logs = [
    stored('t-1', 'BTC', [
      makerFill('a', { atMs: T0 }),
      makerFill('b', { atMs: T0 + 1000 }),
      makerFill('before', { atMs: T0 - 1 }),
      makerFill('at-end', { atMs: T0 + 60_000 }),
      markout('a', 1, '2'),
      markout('b', 1, '-4'),
      markout('b', 10, '-6'),
      markout('before', 1, '100'),
      markout('at-end', 1, '100'),
      quotingSpell(T0 - 10, { quotedMs: 1_000, placed: 1 }), // ended before the window
      hedgeSent('a', '65010'),
      hedgeOutcome('a', '1'),
      quotingSpell(T0 + 1_000, { quotedMs: 900, placed: 2, replaced: 1 }),
      hedgeSent('b', null),
      hedgeOutcome('b', '-3'),
      quotingSpell(T0 + 30_000, { quotedMs: 2_700, placed: 1, canceled: 2 }),
      hedgeOutcome('b', null, '0'),
      hedgeOutcome('before', '50'),
    ]),
    stored('t-2', 'ETH', [
      makerFill('c', { atMs: T0 + 2000, exchange: 'paradex', side: 'sell' }),
      markout('c', 1, '0.5'),
      markout('c', 60, '-1'),
    ]),
    // Quoted in the window and never filled: it counts against its venue's fill rate.
    stored('t-3', 'BTC', [
      quotingSpell(T0 + 40_000, { quotedMs: 3_600, placed: 4, canceled: 4 }, { exchange: 'aster' }),
    ]),
  ];
  const window = { fromMs: T0, toMs: T0 + 60_000 };

  it('counts the fills in [from, to) once, per venue, with nearest-rank percentiles', () => {
    const [aster, hyperliquid, paradex] = qualityReport(logs, window, 'venue');
    expect(hyperliquid).toEqual({
      group: 'hyperliquid',
      fills: 2,
      markout_bps: {
        '1': { count: 2, mean: '-1', p5: '-4', p50: '-4', p95: '2' },
        '10': { count: 1, mean: '-6', p5: '-6', p50: '-6', p95: '-6' },
        '60': { count: 0, mean: null, p5: null, p50: null, p95: null },
      },
      // The log's 1 and -3 (positive: worse) answered positive when good: -1 and 3.
      hedge_slippage_bps: { count: 2, mean: '1', p5: '-1', p50: '-1', p95: '3' },
      // a's sell at 65006 against 65010: -4 / 65010 = -0.615290 bps; b arrived on a stale book.
      hedge_arrival_slippage_bps: {
        count: 1,
        mean: '-0.61529',
        p5: '-0.61529',
        p50: '-0.61529',
        p95: '-0.61529',
      },
      // t-1's first fill ('before') fell before the window: not its time to first fill.
      time_to_first_fill_ms: { count: 0, mean: null, p5: null, p50: null, p95: null },
      // The two spells that ended in the window: 3.6 s quoted, 2 fills.
      quoting: {
        quoted_ms: 3_600,
        orders_placed: 3,
        orders_replaced: 1,
        cancels: 2,
        requotes: 3,
        fills_per_quote_hour: '2000',
        requotes_per_fill: '1.5',
        cancels_per_fill: '1',
      },
    });
    expect(aster).toMatchObject({
      group: 'aster',
      fills: 0,
      quoting: { quoted_ms: 3_600, fills_per_quote_hour: '0', requotes_per_fill: null },
    });
    expect(paradex).toMatchObject({ group: 'paradex', fills: 1 });
    expect(paradex.markout_bps['60']).toMatchObject({ count: 1, mean: '-1' });
    // t-2's first fill is in the window, 2.5 s after its creation.
    expect(paradex.time_to_first_fill_ms).toMatchObject({ count: 1, mean: '2500' });
  });

  it('groups by the trade’s market and by the fill’s side', () => {
    expect(
      qualityReport(logs, window, 'market').map((group) => [group.group, group.fills]),
    ).toEqual([
      ['BTC', 2],
      ['ETH', 1],
    ]);
    expect(qualityReport(logs, window, 'side').map((group) => [group.group, group.fills])).toEqual([
      ['buy', 2],
      ['sell', 1],
    ]);
    const btc = qualityReport(logs, window, 'market')[0];
    expect(btc.quoting).toMatchObject({ quoted_ms: 7_200, orders_placed: 7, cancels: 6 });
  });
});

describe('the window of GET /quality', () => {
  const now = Date.parse('2026-01-10T00:00:00Z');

  it('defaults to the 7 days before now, or before `to`', () => {
    expect(qualityWindow({}, now)).toEqual({ fromMs: now - 7 * 86_400_000, toMs: now });
    const to = '2026-01-05T00:00:00Z';
    expect(qualityWindow({ to }, now)).toEqual({
      fromMs: Date.parse(to) - 7 * 86_400_000,
      toMs: Date.parse(to),
    });
  });

  it('refuses a reversed or empty window, and one wider than 90 days', () => {
    expect(() =>
      qualityWindow({ from: '2026-01-05T00:00:00Z', to: '2026-01-04T00:00:00Z' }, now),
    ).toThrow('from (2026-01-05T00:00:00.000Z) must be before to (2026-01-04T00:00:00.000Z)');
    expect(() =>
      qualityWindow({ from: '2026-01-05T00:00:00Z', to: '2026-01-05T00:00:00Z' }, now),
    ).toThrow(/must be before/);
    expect(() =>
      qualityWindow({ from: '2025-10-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now),
    ).toThrow(/wider than 90 days/);
    expect(
      qualityWindow({ from: '2025-10-03T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now).toMs,
    ).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(() => qualityWindow({ from: '2026-02-01T00:00:00Z' }, now)).toThrow(/must be before/);
  });
});
