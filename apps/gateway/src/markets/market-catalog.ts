import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, withTimeout } from '@sts/platform';
import type { VenueMarket } from '@sts/venues';

/** Where one venue's market list comes from (the venue's own client). */
export interface MarketSource {
  readonly venue: string;
  markets(): Promise<VenueMarket[]>;
}

export const MARKET_SOURCES = Symbol('MARKET_SOURCES');
export const MARKETS_REFRESH_MS = Symbol('MARKETS_REFRESH_MS');

const LOAD_TIMEOUT_MS = 5000;

interface CachedMarkets {
  loadedAtMs: number;
  /** canonical -> every contract the venue lists under it (more than one is ambiguous). */
  byCanonical: Map<string, VenueMarket[]>;
}

export interface TradeableMarket {
  long: VenueMarket;
  short: VenueMarket;
}

/**
 * Market universes read from the venues themselves, cached per venue and
 * refreshed in the background; a venue that stops answering keeps serving its
 * last good list rather than emptying the universe.
 */
@Injectable()
export class MarketCatalog {
  private readonly logger = new Logger(MarketCatalog.name);
  private readonly cache = new Map<string, CachedMarkets>();
  private readonly loading = new Map<string, Promise<CachedMarkets>>();
  private readonly sources: Map<string, MarketSource>;

  constructor(
    @Inject(MARKET_SOURCES) sources: MarketSource[],
    @Inject(MARKETS_REFRESH_MS) private readonly refreshMs: number,
  ) {
    this.sources = new Map(sources.map((source) => [source.venue, source]));
  }

  knows(venue: string): boolean {
    return this.sources.has(venue);
  }

  /** One venue's markets by canonical symbol; throws service_unavailable when never loaded. */
  async venueMarkets(venue: string): Promise<Map<string, VenueMarket[]>> {
    const cached = this.cache.get(venue);
    if (cached) {
      if (Date.now() - cached.loadedAtMs > this.refreshMs) {
        void this.load(venue).catch(() => undefined);
      }
      return cached.byCanonical;
    }
    return (await this.load(venue)).byCanonical;
  }

  /** Rule 5: the market exists on both venues, once each, with the same contract multiplier. */
  async resolveTradeable(
    market: string,
    longVenue: string,
    shortVenue: string,
  ): Promise<TradeableMarket> {
    const [longMarkets, shortMarkets] = await Promise.all([
      this.venueMarkets(longVenue),
      this.venueMarkets(shortVenue),
    ]);
    const long = longMarkets.get(market) ?? [];
    const short = shortMarkets.get(market) ?? [];
    const missing = [
      long.length === 0 ? longVenue : null,
      short.length === 0 ? shortVenue : null,
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new AppError(
        'market_not_tradeable',
        `market ${market} is not listed on ${missing.join(' and ')}`,
      );
    }
    if (
      long.length > 1 ||
      short.length > 1 ||
      long[0].contractMultiplier !== short[0].contractMultiplier
    ) {
      throw new AppError(
        'market_not_tradeable',
        `market ${market} is ambiguous between ${longVenue} and ${shortVenue} (several contracts or different multipliers)`,
      );
    }
    return { long: long[0], short: short[0] };
  }

  private load(venue: string): Promise<CachedMarkets> {
    const source = this.sources.get(venue);
    if (!source) {
      return Promise.reject(new AppError('unknown_exchange', `unknown exchange ${venue}`));
    }
    const inFlight = this.loading.get(venue);
    if (inFlight) {
      return inFlight;
    }
    const loading = withTimeout(source.markets(), LOAD_TIMEOUT_MS)
      .then((markets) => {
        const byCanonical = new Map<string, VenueMarket[]>();
        for (const market of markets) {
          byCanonical.set(market.canonical, [...(byCanonical.get(market.canonical) ?? []), market]);
        }
        const entry = { loadedAtMs: Date.now(), byCanonical };
        this.cache.set(venue, entry);
        return entry;
      })
      .catch((error: unknown) => {
        this.logger.warn({ venue, err: error }, 'market list unavailable');
        const stale = this.cache.get(venue);
        if (stale) {
          return stale;
        }
        throw new AppError('service_unavailable', `market data of ${venue} is unavailable`, {
          cause: error,
        });
      })
      .finally(() => this.loading.delete(venue));
    this.loading.set(venue, loading);
    return loading;
  }
}
