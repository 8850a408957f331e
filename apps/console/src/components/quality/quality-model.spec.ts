import type { QualityReport } from '@sts/sdk';
import { durationText, localInputValue, markoutCurves, shown } from './quality-model';

const none = { count: 0, mean: null, p5: null, p50: null, p95: null };
const report: QualityReport = {
  from: '2026-12-01T00:00:00.000Z',
  to: '2026-12-02T00:00:00.000Z',
  group_by: 'venue',
  groups: [
    {
      group: 'hyperliquid',
      fills: 2,
      markout_bps: {
        '1': { count: 2, mean: '-1', p5: '-2.5', p50: '-2.5', p95: '0.5' },
        '10': { count: 1, mean: '-1.2', p5: '-1.2', p50: '-1.2', p95: '-1.2' },
        '60': none,
      },
      hedge_slippage_bps: none,
    },
  ],
};

describe('quality model', () => {
  it('shows null as a dash, never 0', () => {
    expect(shown(null)).toBe('—');
    expect(shown('0')).toBe('0');
    expect(durationText(null)).toBe('—');
    expect(durationText(4250)).toBe('4.250 s');
  });

  it('draws a curve per group, leaving out a horizon nobody was sampled at', () => {
    expect(markoutCurves(report, 'mean')).toEqual([
      {
        group: 'hyperliquid',
        points: [
          { horizon: 1, bps: -1 },
          { horizon: 10, bps: -1.2 },
          { horizon: 60, bps: null },
        ],
      },
    ]);
    expect(markoutCurves(report, 'p50')[0].points[0]).toEqual({ horizon: 1, bps: -2.5 });
  });

  it('writes an instant as a datetime-local value in local time', () => {
    const at = new Date(2026, 11, 2, 9, 5, 30);
    expect(localInputValue(at.toISOString())).toBe('2026-12-02T09:05');
  });
});
