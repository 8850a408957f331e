import type { ResultsReport } from '@sts/sdk';
import { resultsText } from '../src/commands/results';

/** GET /results by day over November 2026: two days with fills. */
const REPORT: ResultsReport = {
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-12-01T00:00:00.000Z',
  group_by: 'day',
  currency: 'USD',
  rows: [
    {
      key: '2026-11-29',
      trades: 1,
      fills: 2,
      volume: '260.04',
      realised_spread: '0.012',
      // A maker rebate larger than the taker fee.
      fees: '-0.0026',
      funding_paid: '0',
      funding_received: '0.004',
      net: '0.0186',
    },
    {
      key: '2026-11-30',
      trades: 3,
      fills: 12,
      volume: '12345.67',
      realised_spread: '12.34',
      fees: '1.23',
      funding_paid: '0.5',
      funding_received: '0.1',
      net: '10.71',
    },
  ],
  totals: {
    trades: 4,
    fills: 14,
    volume: '12605.71',
    realised_spread: '12.352',
    fees: '1.2274',
    funding_paid: '0.5',
    funding_received: '0.104',
    net: '10.7286',
  },
  funding_unread: [],
  unpriced_fees: 0,
};

describe('sts results output', () => {
  it('prints a row per day and a totals row, numbers right-aligned', () => {
    expect(resultsText(REPORT)).toBe(
      [
        'results by day from 2026-11-01T00:00:00.000Z to 2026-12-01T00:00:00.000Z (USD; NET = REALISED - FEES - FUNDING PAID + FUNDING RECEIVED)',
        'DAY         TRADES  FILLS    VOLUME  REALISED     FEES  FUNDING PAID  FUNDING RECEIVED      NET',
        '2026-11-29       1      2    260.04     0.012  -0.0026             0             0.004   0.0186',
        '2026-11-30       3     12  12345.67     12.34     1.23           0.5               0.1    10.71',
        'total            4     14  12605.71    12.352   1.2274           0.5             0.104  10.7286',
        '',
      ].join('\n'),
    );
  });

  it('names a week by its Monday, a market or a venue by its id', () => {
    const week = {
      ...REPORT,
      group_by: 'week' as const,
      rows: [{ ...REPORT.rows[1], key: '2026-11-30' }],
    };
    expect(resultsText(week)).toMatch(/^WEEK OF +TRADES +FILLS .* NET$/m);
    const venue = {
      ...REPORT,
      group_by: 'venue' as const,
      rows: [{ ...REPORT.rows[1], key: 'hyperliquid' }],
    };
    expect(resultsText(venue)).toMatch(/^VENUE +TRADES .*\nhyperliquid +3 +12 +12345\.67 /m);
    const market = {
      ...REPORT,
      group_by: 'market' as const,
      rows: [{ ...REPORT.rows[1], key: 'BTC' }],
    };
    expect(resultsText(market)).toMatch(/^MARKET +TRADES .*\nBTC +3 +12 /m);
  });

  it('says below the table which funding could not be read and how many fees are not in USD', () => {
    const text = resultsText({
      ...REPORT,
      funding_unread: [
        {
          exchange: 'aster',
          wallet: '0x5c7b2f0e8d1a4b3c9e6f7a8b9c0d1e2f3a4b5c6d',
          error: 'venue answered 503',
        },
      ],
      unpriced_fees: 2,
    });
    expect(text).toMatch(
      /\ntotal .*\nfunding not read now on aster 0x5c7b2f0e8d1a4b3c9e6f7a8b9c0d1e2f3a4b5c6d \(venue answered 503\): its funding is what was read before\n2 fills with a fee in an asset not priced in USD: left out of FEES and NET\n$/,
    );
    expect(resultsText({ ...REPORT, unpriced_fees: 1 })).toMatch(
      /\n1 fill with a fee in an asset not priced in USD: left out of FEES and NET\n$/,
    );
  });

  it('says when nothing filled in the window, and still what could not be read', () => {
    const empty: ResultsReport = {
      ...REPORT,
      rows: [],
      totals: {
        trades: 0,
        fills: 0,
        volume: '0',
        realised_spread: '0',
        fees: '0',
        funding_paid: '0',
        funding_received: '0',
        net: '0',
      },
      funding_unread: [{ exchange: 'paradex', wallet: '0xabc', error: 'timed out' }],
    };
    expect(resultsText(empty)).toBe(
      [
        'results by day from 2026-11-01T00:00:00.000Z to 2026-12-01T00:00:00.000Z (USD; NET = REALISED - FEES - FUNDING PAID + FUNDING RECEIVED)',
        'no fills in this window',
        'funding not read now on paradex 0xabc (timed out): its funding is what was read before',
        '',
      ].join('\n'),
    );
  });
});
