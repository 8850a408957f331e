import type { QualityReport, TradeQuality } from '@sts/sdk';
import { qualityReportText, tradeQualityText } from '../src/commands/quality';

/** The OpenAPI document's example of GET /trades/{id}/quality. */
const QUALITY: TradeQuality = {
  trade_id: '8f14e45f-ceea-467a-9575-6c3f1b2a9e01',
  status: 'completed',
  market: 'BTC',
  maker_leg: 'long',
  spread_type: 'absolute',
  target_spread: '5',
  realised_spread: '6',
  realised_vs_target: '1',
  created_at: '2026-01-05T09:30:00.000Z',
  first_fill_at: '2026-01-05T09:30:04.250Z',
  time_to_first_fill_ms: 4250,
  ended_at: '2026-01-05T09:31:10.000Z',
  time_to_end_ms: 70000,
  fills_count: 1,
  mean_markout_bps: { '1': '0.5', '10': '-1.2', '60': null },
  fills: [
    {
      fill_id: 'fill-1',
      exchange: 'hyperliquid',
      side: 'buy',
      price: '65000',
      size: '0.004',
      timestamp: '2026-01-05T09:30:04.250Z',
      markout_bps: { '1': '0.5', '10': '-1.2', '60': null },
      markout_mid: { '1': '65003.25', '10': '64992.2', '60': null },
      hedges: [
        {
          result: 'filled',
          exchange: 'paradex',
          side: 'sell',
          requested_size: '0.004',
          filled_size: '0.004',
          avg_price: '65006',
          slippage_bps: '-0.769',
        },
      ],
    },
  ],
};

const none = { count: 0, mean: null, p5: null, p50: null, p95: null };

describe('sts quality output', () => {
  it('prints a trade’s figures, then a table of its fills', () => {
    expect(tradeQualityText(QUALITY)).toBe(
      [
        'trade        8f14e45f-ceea-467a-9575-6c3f1b2a9e01  completed  BTC  maker long',
        'spread       target 5  realised 6  vs target 1 (absolute)',
        'first fill   4.250 s after creation',
        'ended        70.000 s after creation',
        'markout bps  1s 0.5  10s -1.2  60s -  (mean of 1 fills)',
        '',
        'FILL    VENUE        SIDE  PRICE   SIZE  TIME                      MO 1s  MO 10s  MO 60s  HEDGE SLIP',
        'fill-1  hyperliquid  buy   65000  0.004  2026-01-05T09:30:04.250Z    0.5    -1.2       -      -0.769',
        '',
      ].join('\n'),
    );
    const running = { ...QUALITY, ended_at: null, time_to_end_ms: null, fills: [] };
    expect(tradeQualityText(running)).toMatch(/^ended {8}running$/m);
    expect(tradeQualityText(running)).toMatch(/\nno maker fills\n$/);
  });

  it('prints a window as a table: per group, a row per horizon and one for the hedges', () => {
    const report: QualityReport = {
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-08T00:00:00.000Z',
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
          hedge_slippage_bps: {
            count: 1,
            mean: '-0.769',
            p5: '-0.769',
            p50: '-0.769',
            p95: '-0.769',
          },
        },
      ],
    };
    expect(qualityReportText(report)).toBe(
      [
        'quality by venue, fills from 2026-01-01T00:00:00.000Z to 2026-01-08T00:00:00.000Z (bps, positive good for you)',
        'VENUE        FILLS  WHAT         N    MEAN      P5     P50     P95',
        'hyperliquid      2  markout 1s   2      -1    -2.5    -2.5     0.5',
        'hyperliquid      2  markout 10s  1    -1.2    -1.2    -1.2    -1.2',
        'hyperliquid      2  markout 60s  0       -       -       -       -',
        'hyperliquid      2  hedge slip   1  -0.769  -0.769  -0.769  -0.769',
        '',
      ].join('\n'),
    );
    expect(qualityReportText({ ...report, groups: [] })).toMatch(/\nno maker fills\n$/);
  });
});
