import type { QualityReport, TradeQuality } from '@sts/sdk';
import {
  arrivalSlippageText,
  durationText,
  localInputValue,
  markoutCurves,
  QUOTING_FIGURES,
  quotingTexts,
  shown,
} from './quality-model';

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
      hedge_arrival_slippage_bps: none,
      time_to_first_fill_ms: { count: 1, mean: '4250', p5: '4250', p50: '4250', p95: '4250' },
      quoting: {
        quoted_ms: 61_200,
        orders_placed: 7,
        orders_replaced: 1,
        cancels: 6,
        requotes: 7,
        fills_per_quote_hour: '117.647059',
        requotes_per_fill: '3.5',
        cancels_per_fill: '3',
      },
    },
    {
      // Quoted and never filled: no markout to draw, no rate per fill.
      group: 'paradex',
      fills: 0,
      markout_bps: { '1': none, '10': none, '60': none },
      hedge_slippage_bps: none,
      hedge_arrival_slippage_bps: none,
      time_to_first_fill_ms: none,
      quoting: {
        quoted_ms: 27_000,
        orders_placed: 4,
        orders_replaced: 0,
        cancels: 4,
        requotes: 4,
        fills_per_quote_hour: '0',
        requotes_per_fill: null,
        cancels_per_fill: null,
      },
    },
  ],
};
type Hedge = TradeQuality['fills'][number]['hedges'][number];
const hedge: Hedge = {
  result: 'filled',
  exchange: 'paradex',
  side: 'sell',
  requested_size: '0.004',
  filled_size: '0.004',
  avg_price: '65006',
  slippage_bps: '-0.769',
  arrival_mid: '65008.5',
  arrival_slippage_bps: '-0.384565',
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
      {
        group: 'paradex',
        points: [
          { horizon: 1, bps: null },
          { horizon: 10, bps: null },
          { horizon: 60, bps: null },
        ],
      },
    ]);
    expect(markoutCurves(report, 'p50')[0].points[0]).toEqual({ horizon: 1, bps: -2.5 });
  });

  it('shows the quoting figures in order, the time in seconds and a rate without a fill as a dash', () => {
    const texts = (group: number) =>
      QUOTING_FIGURES.map(([field, label]) => [
        label,
        quotingTexts(report.groups[group].quoting)[field],
      ]);
    expect(texts(0)).toEqual([
      ['Time quoted', '61.200 s'],
      ['Orders placed', '7'],
      ['Replaced', '1'],
      ['Canceled', '6'],
      ['Re-quotes', '7'],
      ['Fills per quote-hour', '117.647059'],
      ['Re-quotes per fill', '3.5'],
      ['Cancels per fill', '3'],
    ]);
    expect(texts(1).slice(5)).toEqual([
      ['Fills per quote-hour', '0'],
      ['Re-quotes per fill', '—'],
      ['Cancels per fill', '—'],
    ]);
  });

  it('lists a fill’s hedges’ slippage against arrival in log order, a dash where none', () => {
    expect(arrivalSlippageText([hedge])).toBe('-0.384565');
    expect(
      arrivalSlippageText([hedge, { ...hedge, arrival_mid: null, arrival_slippage_bps: null }]),
    ).toBe('-0.384565, —');
    expect(arrivalSlippageText([])).toBe('—');
  });

  it('writes an instant as a datetime-local value in local time', () => {
    const at = new Date(2026, 11, 2, 9, 5, 30);
    expect(localInputValue(at.toISOString())).toBe('2026-12-02T09:05');
  });
});
