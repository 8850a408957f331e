import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import {
  absoluteSpread,
  coarserTickSize,
  formatDecimal,
  hedgeReferenceFrom,
  makerSideTouch,
  satisfiesSpreadCondition,
  toSpreadUnits,
  touchQuote,
  type BookTouch,
  type LegRules,
  type MakerLeg,
  type SpreadBasis,
  type SpreadCondition,
  type SpreadType,
  type TradeMarket,
} from '@sts/domain';
import { AppError } from '@sts/platform';
import type { VenueMarket } from '@sts/venues';
import { MarketCatalog } from '../markets/market-catalog';
import { VenueBooks, type VenueTouch } from './venue-books';

export interface SpreadRequest {
  market: string;
  longExchange: string;
  shortExchange: string;
  makerLeg: MakerLeg;
  spreadType: SpreadType;
  target?: { spread: string; condition: SpreadCondition };
}

export interface SpreadView {
  market: string;
  long_exchange: string;
  short_exchange: string;
  long: { bid: string; ask: string };
  short: { bid: string; ask: string };
  spread_type: SpreadType;
  spread: string;
  condition_met: boolean | null;
  at: string;
}

const legRulesOf = (market: VenueMarket): LegRules => ({
  tickSize: new Big(market.entry.tick_size),
  lotSize: new Big(market.entry.lot_size),
  minSize: new Big(market.entry.min_size),
  ...(market.entry.min_notional !== undefined
    ? { minNotional: new Big(market.entry.min_notional) }
    : {}),
});

const bookTouchOf = (touch: VenueTouch): BookTouch => ({
  bestBid: new Big(touch.bestBid),
  bestAsk: new Big(touch.bestAsk),
});

/**
 * The spread a trade with these terms would see now, by the domain's rules
 * the worker quotes with: a maker order at the maker venue's touch (the
 * default quote, on the maker's tick grid) against the hedge reference H
 * (the touch the hedge would take), in the trade's unit, and whether the
 * trade's condition holds at it.
 */
@Injectable()
export class ReadSpreadUseCase {
  constructor(
    private readonly catalog: MarketCatalog,
    private readonly books: VenueBooks,
  ) {}

  async execute(request: SpreadRequest): Promise<SpreadView> {
    const { longExchange, shortExchange, makerLeg } = request;
    for (const exchange of [longExchange, shortExchange]) {
      if (!this.catalog.knows(exchange)) {
        throw new AppError('unknown_exchange', `unknown exchange ${exchange}`);
      }
    }
    if (longExchange === shortExchange) {
      throw new AppError('same_exchange', 'long_exchange and short_exchange must differ');
    }
    const [longMarket, shortMarket] = await Promise.all([
      this.listing(longExchange, request.market),
      this.listing(shortExchange, request.market),
    ]);
    if (longMarket.contractMultiplier !== shortMarket.contractMultiplier) {
      throw new AppError(
        'market_not_tradeable',
        `market ${request.market} has different contract multipliers on ${longExchange} and ${shortExchange}`,
      );
    }
    const [longTouch, shortTouch] = await Promise.all([
      this.books.touch(longExchange, longMarket.entry.symbol),
      this.books.touch(shortExchange, shortMarket.entry.symbol),
    ]);
    const market: TradeMarket = { long: legRulesOf(longMarket), short: legRulesOf(shortMarket) };
    const makerTouch = bookTouchOf(makerLeg === 'long' ? longTouch : shortTouch);
    const hedgeTouch = bookTouchOf(makerLeg === 'long' ? shortTouch : longTouch);
    const makerPrice =
      touchQuote('default', { makerLeg, market, makerTouch }) ??
      makerSideTouch(makerLeg, makerTouch);
    const hedgeReference = hedgeReferenceFrom(makerLeg, hedgeTouch);
    const absolute = absoluteSpread(makerLeg, makerPrice, hedgeReference);
    const basis: SpreadBasis = { hedgeReference, coarserTickSize: coarserTickSize(market) };
    return {
      market: request.market,
      long_exchange: longExchange,
      short_exchange: shortExchange,
      long: { bid: longTouch.bestBid, ask: longTouch.bestAsk },
      short: { bid: shortTouch.bestBid, ask: shortTouch.bestAsk },
      spread_type: request.spreadType,
      spread: formatDecimal(toSpreadUnits(absolute, request.spreadType, basis)),
      condition_met: request.target
        ? satisfiesSpreadCondition(
            absolute,
            {
              spreadType: request.spreadType,
              condition: request.target.condition,
              targetSpread: new Big(request.target.spread),
            },
            basis,
          )
        : null,
      at: new Date().toISOString(),
    };
  }

  /** The venue's one contract for the market; 404 when it lists none. */
  private async listing(exchange: string, market: string): Promise<VenueMarket> {
    const contracts = (await this.catalog.venueMarkets(exchange)).get(market) ?? [];
    if (contracts.length === 0) {
      throw new AppError('not_found', `market ${market} is not listed on ${exchange}`);
    }
    if (contracts.length > 1) {
      throw new AppError(
        'market_not_tradeable',
        `market ${market} is ambiguous on ${exchange} (several contracts)`,
      );
    }
    return contracts[0];
  }
}
