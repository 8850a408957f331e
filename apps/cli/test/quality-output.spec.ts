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
  spread_at_start: '2.5',
  realised_vs_start: '3.5',
  created_at: '2026-01-05T09:30:00.000Z',
  first_fill_at: '2026-01-05T09:30:04.250Z',
  time_to_first_fill_ms: 4250,
  ended_at: '2026-01-05T09:31:10.000Z',
  time_to_end_ms: 70000,
  fills_count: 1,
  quoting: {
    quoted_ms: 61_200,
    orders_placed: 7,
    orders_replaced: 0,
    cancels: 6,
    requotes: 6,
    fills_per_quote_hour: '58.823529',
    requotes_per_fill: '6',
    cancels_per_fill: '6',
  },
  quoted_share: '0.8743',
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
          arrival_mid: '65008.5',
          arrival_slippage_bps: '-0.384565',
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
        'spread       target 5  realised 6  vs target 1  at start 2.5  vs start 3.5 (absolute)',
        'first fill   4.250 s after creation',
        'ended        70.000 s after creation',
        'quoting      61.200 s, 0.8743 of its life  placed 7  replaced 0  canceled 6  fills/quote-hour 58.823529  re-quotes/fill 6',
        'markout bps  1s 0.5  10s -1.2  60s -  (mean of 1 fills)',
        '',
        'FILL    VENUE        SIDE  PRICE   SIZE  TIME                      MO 1s  MO 10s  MO 60s  HEDGE SLIP  ARRIVAL SLIP',
        'fill-1  hyperliquid  buy   65000  0.004  2026-01-05T09:30:04.250Z    0.5    -1.2       -      -0.769     -0.384565',
        '',
      ].join('\n'),
    );
    const running = {
      ...QUALITY,
      ended_at: null,
      time_to_end_ms: null,
      quoted_share: null,
      quoting: {
        ...QUALITY.quoting,
        quoted_ms: 3_000,
        fills_per_quote_hour: null,
        requotes_per_fill: null,
        cancels_per_fill: null,
      },
      fills: [],
    };
    expect(tradeQualityText(running)).toMatch(/^ended {8}running$/m);
    // Not filled on both legs yet, nor a fresh book at the start: dashes, never 0.
    expect(
      tradeQualityText({
        ...running,
        realised_spread: null,
        realised_vs_target: null,
        spread_at_start: null,
        realised_vs_start: null,
      }),
    ).toMatch(
      /^spread {7}target 5 {2}realised - {2}vs target - {2}at start - {2}vs start - \(absolute\)$/m,
    );
    // No share of a life not over yet; a rate the API could not take is a dash.
    expect(tradeQualityText(running)).toMatch(
      /^quoting {6}3\.000 s {2}placed 7 {2}replaced 0 {2}canceled 6 {2}fills\/quote-hour - {2}re-quotes\/fill -$/m,
    );
    expect(tradeQualityText(running)).toMatch(/\nno maker fills\n$/);
  });

  it('lists each of a fill’s hedges in both slippage columns, in log order', () => {
    const [fill] = QUALITY.fills;
    const [hedge] = fill.hedges;
    const twoHedges: TradeQuality = {
      ...QUALITY,
      fills: [
        {
          ...fill,
          hedges: [
            { ...hedge, result: 'partial', filled_size: '0.001' },
            { ...hedge, slippage_bps: '0.5', arrival_mid: null, arrival_slippage_bps: null },
          ],
        },
        { ...fill, fill_id: 'fill-2', hedges: [] },
      ],
    };
    const text = tradeQualityText(twoHedges);
    expect(text).toMatch(/^fill-1 .* -0\.769,0\.5 +-0\.384565,-$/m);
    expect(text).toMatch(/^fill-2 .* - +- +-$/m);
  });

  it('prints a window as tables: per group a row per horizon, the hedges and the first fill, then its quoting', () => {
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
          hedge_arrival_slippage_bps: {
            count: 1,
            mean: '-0.384565',
            p5: '-0.384565',
            p50: '-0.384565',
            p95: '-0.384565',
          },
          time_to_first_fill_ms: { count: 1, mean: '4250', p5: '4250', p50: '4250', p95: '4250' },
          quoting: {
            quoted_ms: 61_200,
            orders_placed: 7,
            orders_replaced: 0,
            cancels: 6,
            requotes: 6,
            fills_per_quote_hour: '117.647059',
            requotes_per_fill: '3',
            cancels_per_fill: '3',
          },
        },
        {
          // A trade that quoted on paradex and never filled.
          group: 'paradex',
          fills: 0,
          markout_bps: { '1': none, '10': none, '60': none },
          hedge_slippage_bps: none,
          hedge_arrival_slippage_bps: none,
          time_to_first_fill_ms: none,
          quoting: {
            quoted_ms: 5_400_000,
            orders_placed: 310,
            orders_replaced: 12,
            cancels: 298,
            requotes: 310,
            fills_per_quote_hour: '0',
            requotes_per_fill: null,
            cancels_per_fill: null,
          },
        },
      ],
    };
    expect(qualityReportText(report)).toBe(
      [
        'quality by venue, fills and quoting from 2026-01-01T00:00:00.000Z to 2026-01-08T00:00:00.000Z (bps, positive good for you; first fill in ms)',
        'VENUE        FILLS  WHAT           N       MEAN         P5        P50        P95',
        'hyperliquid      2  markout 1s     2         -1       -2.5       -2.5        0.5',
        'hyperliquid      2  markout 10s    1       -1.2       -1.2       -1.2       -1.2',
        'hyperliquid      2  markout 60s    0          -          -          -          -',
        'hyperliquid      2  hedge slip     1     -0.769     -0.769     -0.769     -0.769',
        'hyperliquid      2  arrival slip   1  -0.384565  -0.384565  -0.384565  -0.384565',
        'hyperliquid      2  first fill ms  1       4250       4250       4250       4250',
        'paradex          0  markout 1s     0          -          -          -          -',
        'paradex          0  markout 10s    0          -          -          -          -',
        'paradex          0  markout 60s    0          -          -          -          -',
        'paradex          0  hedge slip     0          -          -          -          -',
        'paradex          0  arrival slip   0          -          -          -          -',
        'paradex          0  first fill ms  0          -          -          -          -',
        '',
        'quoting (FILLS/QH: fills per hour quoted)',
        'VENUE        FILLS      QUOTED  PLACED  REQUOTES    FILLS/QH  REQUOTES/FILL  CANCELS/FILL',
        'hyperliquid      2    61.200 s       7         6  117.647059              3             3',
        'paradex          0  5400.000 s     310       310           0              -             -',
        '',
      ].join('\n'),
    );
    expect(qualityReportText({ ...report, groups: [] })).toMatch(/\nno maker fills or quoting\n$/);
  });
});
