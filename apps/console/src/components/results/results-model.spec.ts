import type { ResultsReport } from '@sts/sdk';
import { cumulativeNet, RESULT_FIGURES, resultNotes, resultTexts, windowOf } from './results-model';

const zero = {
  trades: 0,
  fills: 0,
  volume: '0',
  realised_spread: '0',
  fees: '0',
  funding_paid: '0',
  funding_received: '0',
  net: '0',
};
const day = (key: string, net: string) => ({ ...zero, key, trades: 1, fills: 2, net });

/** GET /results by day over November 2026: three days with fills, one of them a loss. */
const REPORT: ResultsReport = {
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-12-01T00:00:00.000Z',
  group_by: 'day',
  currency: 'USD',
  rows: [day('2026-11-03', '10.71'), day('2026-11-04', '-12.0355'), day('2026-11-20', '0.3255')],
  totals: { ...zero, trades: 3, fills: 6, net: '-1' },
  funding_unread: [],
  unpriced_fees: 0,
};

describe('the results page model', () => {
  it('asks for the window of 7, 30 or 90 days up to now', () => {
    const now = new Date('2026-12-01T12:00:00.000Z');
    expect(windowOf(7, now)).toEqual({
      from: '2026-11-24T12:00:00.000Z',
      to: '2026-12-01T12:00:00.000Z',
    });
    expect(windowOf(90, now).from).toBe('2026-09-02T12:00:00.000Z');
  });

  it('sums the net day by day, exactly, from 0 at the window’s start to its last day', () => {
    const points = cumulativeNet(REPORT);
    expect(points.map(({ day: d, net, cumulative }) => [d, net, cumulative])).toEqual([
      ['2026-11-01', '0', '0'],
      ['2026-11-03', '10.71', '10.71'],
      ['2026-11-04', '-12.0355', '-1.3255'],
      ['2026-11-20', '0.3255', '-1'],
      ['2026-12-01', '0', '-1'],
    ]);
    // The last point is the totals' net: the decimals add up without a float's drift.
    expect(points[points.length - 1].cumulative).toBe(REPORT.totals.net);
    expect(points.map((point) => point.value)).toEqual([0, 10.71, -1.3255, -1, -1]);
    expect(points[1].time).toBe(Date.parse('2026-11-03T00:00:00Z') / 1000);
    // Strictly ascending in time, as the chart requires.
    expect(points.every((point, i) => i === 0 || point.time > points[i - 1].time)).toBe(true);
  });

  it('adds no end point on a day that has its own row', () => {
    const report = {
      ...REPORT,
      rows: [day('2026-11-01', '1.5'), day('2026-12-01', '0.25')],
      totals: { ...zero, net: '1.75' },
    };
    expect(cumulativeNet(report).map((point) => [point.day, point.cumulative])).toEqual([
      ['2026-11-01', '1.5'],
      ['2026-12-01', '1.75'],
    ]);
  });

  it('draws a flat zero over a window without a fill', () => {
    expect(cumulativeNet({ ...REPORT, rows: [], totals: zero })).toEqual([
      {
        day: '2026-11-01',
        time: Date.parse('2026-11-01') / 1000,
        net: '0',
        cumulative: '0',
        value: 0,
      },
      {
        day: '2026-12-01',
        time: Date.parse('2026-12-01') / 1000,
        net: '0',
        cumulative: '0',
        value: 0,
      },
    ]);
  });

  it('shows the figures as the API gives them, in the table’s order', () => {
    const texts = resultTexts({
      trades: 3,
      fills: 12,
      volume: '12345.67',
      realised_spread: '12.34',
      fees: '-0.0026',
      funding_paid: '0.5',
      funding_received: '0.1',
      net: '11.9426',
    });
    expect(RESULT_FIGURES.map(([field]) => texts[field])).toEqual([
      '3',
      '12',
      '12345.67',
      '12.34',
      '-0.0026',
      '0.5',
      '0.1',
      '11.9426',
    ]);
    expect(RESULT_FIGURES.map(([, label]) => label)).toEqual([
      'Trades',
      'Fills',
      'Volume',
      'Realised spread',
      'Fees',
      'Funding paid',
      'Funding received',
      'Net',
    ]);
  });

  it('says which funding could not be read and how many fees are left out', () => {
    expect(resultNotes(REPORT)).toEqual([]);
    expect(
      resultNotes({
        ...REPORT,
        funding_unread: [{ exchange: 'aster', wallet: '0xabc', error: 'venue answered 503' }],
        unpriced_fees: 2,
      }),
    ).toEqual([
      'Funding on aster for 0xabc could not be read now (venue answered 503): its funding is what was read before.',
      '2 fills paid a fee in an asset not priced in USD: left out of the fees and the net.',
    ]);
    expect(resultNotes({ ...REPORT, unpriced_fees: 1 })).toEqual([
      '1 fill paid a fee in an asset not priced in USD: left out of the fees and the net.',
    ]);
  });
});
