import type { Market } from '@sts/sdk';
import Big from 'big.js';

/**
 * One pair of venues listing a market, oriented the way a funding trade takes
 * it: long where funding is lower, short where it is higher (the short leg
 * receives what the long leg pays).
 */
export interface FundingDifference {
  market: string;
  longExchange: string;
  shortExchange: string;
  longAnnualised: string;
  shortAnnualised: string;
  /** short minus long, annualised (a fraction: 0.1 = 10 % a year). */
  difference: string;
}

export function fundingDifferences(markets: readonly Market[]): FundingDifference[] {
  const rows: FundingDifference[] = [];
  for (const market of markets) {
    const funded = Object.entries(market.exchanges)
      .filter(([, entry]) => entry.live_funding_annualised !== undefined)
      .map(([exchange, entry]) => ({
        exchange,
        annualised: new Big(entry.live_funding_annualised as string),
      }));
    for (let i = 0; i < funded.length; i += 1) {
      for (let j = i + 1; j < funded.length; j += 1) {
        const [low, high] = funded[i].annualised.lte(funded[j].annualised)
          ? [funded[i], funded[j]]
          : [funded[j], funded[i]];
        rows.push({
          market: market.canonical,
          longExchange: low.exchange,
          shortExchange: high.exchange,
          longAnnualised: low.annualised.toFixed(),
          shortAnnualised: high.annualised.toFixed(),
          difference: high.annualised.minus(low.annualised).toFixed(),
        });
      }
    }
  }
  return rows;
}

export type SortKey = 'market' | 'longExchange' | 'shortExchange' | 'difference';

export function sortDifferences(
  rows: readonly FundingDifference[],
  key: SortKey,
  direction: 'ascending' | 'descending',
): FundingDifference[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const order =
      key === 'difference' ? new Big(a.difference).cmp(b.difference) : a[key].localeCompare(b[key]);
    return sign * order || a.market.localeCompare(b.market);
  });
}

/** An annualised fraction as a percentage for reading: "0.1095" is "10.95 %". */
export const asPercent = (fraction: string | undefined): string =>
  fraction === undefined ? '—' : `${new Big(fraction).times(100).round(2).toFixed(2)} %`;
