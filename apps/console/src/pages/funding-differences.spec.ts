import type { Market } from '@sts/sdk';
import { asPercent, fundingDifferences, sortDifferences } from './funding-differences';

const entry = (annualised?: string) => ({
  symbol: 'X',
  tick_size: '0.1',
  lot_size: '0.001',
  min_size: '0.001',
  ...(annualised === undefined ? {} : { live_funding_annualised: annualised }),
});

const MARKETS: Market[] = [
  {
    canonical: 'BTC',
    exchanges: { hyperliquid: entry('0.1095'), paradex: entry('0.0438'), aster: entry() },
  },
  {
    canonical: 'ETH',
    exchanges: { hyperliquid: entry('-0.02'), lighter: entry('0.3'), extended: entry('0.05') },
  },
];

describe('funding differences between venues', () => {
  it('pairs every two venues that report funding, long where it is lower and short where it is higher', () => {
    const rows = fundingDifferences(MARKETS);
    expect(rows.filter((row) => row.market === 'BTC')).toEqual([
      {
        market: 'BTC',
        longExchange: 'paradex',
        shortExchange: 'hyperliquid',
        longAnnualised: '0.0438',
        shortAnnualised: '0.1095',
        difference: '0.0657',
      },
    ]);
    expect(
      rows
        .filter((row) => row.market === 'ETH')
        .map((row) => `${row.longExchange}>${row.shortExchange} ${row.difference}`),
    ).toEqual(['hyperliquid>lighter 0.32', 'hyperliquid>extended 0.07', 'extended>lighter 0.25']);
  });

  it('sorts by difference as decimals, either way, and by venue names', () => {
    const rows = fundingDifferences(MARKETS);
    expect(sortDifferences(rows, 'difference', 'descending').map((row) => row.difference)).toEqual([
      '0.32',
      '0.25',
      '0.07',
      '0.0657',
    ]);
    expect(sortDifferences(rows, 'difference', 'ascending').map((row) => row.difference)).toEqual([
      '0.0657',
      '0.07',
      '0.25',
      '0.32',
    ]);
    expect(sortDifferences(rows, 'longExchange', 'ascending')[0].longExchange).toBe('extended');
  });

  it('reads an annualised fraction as a percentage', () => {
    expect(asPercent('0.1095')).toBe('10.95 %');
    expect(asPercent('-0.0123')).toBe('-1.23 %');
    expect(asPercent(undefined)).toBe('—');
  });
});
