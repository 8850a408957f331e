import { Injectable } from '@nestjs/common';
import { AppError } from '@sts/platform';
import type { MarketEntry } from '@sts/venues';
import { MarketCatalog } from './market-catalog';

export interface MarketView {
  canonical: string;
  exchanges: Record<string, MarketEntry>;
}

/**
 * GET /api/v1/markets: the markets listed on at least `minExchanges` of the
 * given venues (all of them when omitted). A venue that lists several
 * contracts under one canonical symbol is left out of that market: it is
 * ambiguous there and cannot be traded.
 */
@Injectable()
export class ListMarketsUseCase {
  constructor(private readonly catalog: MarketCatalog) {}

  async execute(exchangeList: string, minExchanges?: number): Promise<{ markets: MarketView[] }> {
    const exchanges = [...new Set(exchangeList.split(','))];
    const unknown = exchanges.filter((exchange) => !this.catalog.knows(exchange));
    if (unknown.length > 0) {
      throw new AppError('invalid_request', `unknown exchange ${unknown.join(', ')}`);
    }
    const needed = minExchanges ?? exchanges.length;
    if (needed > exchanges.length) {
      throw new AppError(
        'invalid_request',
        'min_exchanges cannot exceed the number of exchanges listed',
      );
    }
    const perVenue = await Promise.all(
      exchanges.map((exchange) => this.catalog.venueMarkets(exchange)),
    );
    const universe = new Map<string, Record<string, MarketEntry>>();
    exchanges.forEach((exchange, index) => {
      for (const [canonical, contracts] of perVenue[index]) {
        if (contracts.length !== 1) {
          continue;
        }
        universe.set(canonical, { ...universe.get(canonical), [exchange]: contracts[0].entry });
      }
    });
    const markets = [...universe.entries()]
      .filter(([, venues]) => Object.keys(venues).length >= needed)
      .map(([canonical, venues]) => ({ canonical, exchanges: venues }))
      .sort((a, b) => a.canonical.localeCompare(b.canonical));
    return { markets };
  }
}
