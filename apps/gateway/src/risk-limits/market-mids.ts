import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { isAppError, AppError } from '@sts/platform';
import { MarketCatalog } from '../markets/market-catalog';
import { VenueBooks, type VenueTouch } from '../spread/venue-books';

/** A trade's market on its two venues. */
export interface TradeVenues {
  market: string;
  longExchange: string;
  shortExchange: string;
}

const midOfTouch = (touch: VenueTouch): Big => new Big(touch.bestBid).plus(touch.bestAsk).div(2);

/**
 * The venues' current mid of a trade's market: the mean of its two venues'
 * mids ((best bid + best ask) / 2 each), read from the books the gateway
 * already keeps for GET /markets/{market}/spread (each venue's own client:
 * the simulator's stream on paper, ccxt's public stream live; a stream per
 * market opened on first read, kept while read). No mid, no guess: a book
 * that cannot be read is 503 `service_unavailable` naming the venue.
 */
@Injectable()
export class MarketMids {
  constructor(
    private readonly catalog: MarketCatalog,
    private readonly books: VenueBooks,
  ) {}

  async midOf(venues: TradeVenues): Promise<Big> {
    const { market, longExchange, shortExchange } = venues;
    try {
      const { long, short } = await this.catalog.resolveTradeable(
        market,
        longExchange,
        shortExchange,
      );
      const [longTouch, shortTouch] = await Promise.all([
        this.books.touch(longExchange, long.entry.symbol),
        this.books.touch(shortExchange, short.entry.symbol),
      ]);
      return midOfTouch(longTouch).plus(midOfTouch(shortTouch)).div(2);
    } catch (error) {
      if (isAppError(error) && error.code === 'service_unavailable') {
        throw new AppError(
          'service_unavailable',
          `risk limits value trades at the mid: ${error.message}`,
          { reason: error.reason ?? 'market_data', cause: error },
        );
      }
      throw new AppError(
        'service_unavailable',
        `risk limits value trades at the mid: no mid of ${market} on ${longExchange} and ${shortExchange}`,
        { reason: 'market_data', cause: error },
      );
    }
  }
}
