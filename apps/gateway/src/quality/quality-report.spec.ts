import type { LogEntry } from '@sts/contracts';
import type { TradeQualityLog } from '@sts/persistence';
import { hedgeOutcome, makerFill, markout } from './quality-fixtures';
import { qualityReport } from './quality-report';
import { qualityWindow } from './read-quality-report.use-case';

const T0 = 1_764_000_000_000;
const stored = (tradeId: string, market: string, entries: LogEntry[]): TradeQualityLog => ({
  tradeId,
  market,
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
      hedgeOutcome('a', '1'),
      hedgeOutcome('b', '-3'),
      hedgeOutcome('b', null, '0'),
      hedgeOutcome('before', '50'),
    ]),
    stored('t-2', 'ETH', [
      makerFill('c', { atMs: T0 + 2000, exchange: 'paradex', side: 'sell' }),
      markout('c', 1, '0.5'),
      markout('c', 60, '-1'),
    ]),
  ];
  const window = { fromMs: T0, toMs: T0 + 60_000 };

  it('counts the fills in [from, to) once, per venue, with nearest-rank percentiles', () => {
    const [hyperliquid, paradex] = qualityReport(logs, window, 'venue');
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
    });
    expect(paradex).toMatchObject({ group: 'paradex', fills: 1 });
    expect(paradex.markout_bps['60']).toMatchObject({ count: 1, mean: '-1' });
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
