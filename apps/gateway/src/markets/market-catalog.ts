import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AppError, withTimeout } from '@sts/platform';
import type { VenueMarket } from '@sts/venues';

/** Where one venue's market list comes from (the venue's own client). */
export interface MarketSource {
  readonly venue: string;
  markets(): Promise<VenueMarket[]>;
}

export const MARKET_SOURCES = Symbol('MARKET_SOURCES');
export const MARKETS_REFRESH_MS = Symbol('MARKETS_REFRESH_MS');

/** How long a caller waits for a venue's list it does not have yet. */
const LOAD_TIMEOUT_MS = 5000;
/**
 * A read of a venue's list still unanswered this long is given up for a new
 * one: each client bounds its own requests well inside it, so this only
 * guards against a read that never settles.
 */
const FETCH_ABANDON_MS = 60_000;

interface CachedMarkets {
  loadedAtMs: number;
  /** canonical -> every contract the venue lists under it (more than one is ambiguous). */
  byCanonical: Map<string, VenueMarket[]>;
}

interface Fetching {
  startedAtMs: number;
  done: Promise<CachedMarkets>;
}

export interface TradeableMarket {
  long: VenueMarket;
  short: VenueMarket;
}

/**
 * Market universes read from the venues themselves, cached per venue and
 * refreshed in the background; a venue that stops answering keeps serving its
 * last good list rather than emptying the universe. Every list is read once
 * the gateway starts, so the first create does not wait for it; a read that
 * outlasts a caller's wait still fills the cache when it answers.
 */
@Injectable()
export class MarketCatalog implements OnApplicationBootstrap {
  private readonly logger = new Logger(MarketCatalog.name);
  private readonly cache = new Map<string, CachedMarkets>();
  private readonly fetching = new Map<string, Fetching>();
  private readonly sources: Map<string, MarketSource>;

  constructor(
    @Inject(MARKET_SOURCES) sources: MarketSource[],
    @Inject(MARKETS_REFRESH_MS) private readonly refreshMs: number,
  ) {
    this.sources = new Map(sources.map((source) => [source.venue, source]));
  }

  /** Starts reading every venue's list; a venue that does not answer is read again on demand. */
  onApplicationBootstrap(): void {
    for (const venue of this.sources.keys()) {
      void this.load(venue).catch(() => undefined);
    }
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

  /** The venue's list within LOAD_TIMEOUT_MS: the read under way (or a new one), else the last good list. */
  private load(venue: string): Promise<CachedMarkets> {
    if (!this.sources.has(venue)) {
      return Promise.reject(new AppError('unknown_exchange', `unknown exchange ${venue}`));
    }
    return withTimeout(this.fetch(venue), LOAD_TIMEOUT_MS).catch((error: unknown) => {
      this.logger.warn({ venue, err: error }, 'market list unavailable');
      const stale = this.cache.get(venue);
      if (stale) {
        return stale;
      }
      throw new AppError('service_unavailable', `market data of ${venue} is unavailable`, {
        cause: error,
      });
    });
  }

  /** One read of a venue's list at a time; its answer replaces the cached list whoever waits. */
  private fetch(venue: string): Promise<CachedMarkets> {
    const now = Date.now();
    const current = this.fetching.get(venue);
    if (current && now - current.startedAtMs < FETCH_ABANDON_MS) {
      return current.done;
    }
    const fetching: Fetching = {
      startedAtMs: now,
      done: this.sources
        .get(venue)!
        .markets()
        .then((markets) => this.store(venue, markets))
        .finally(() => {
          if (this.fetching.get(venue) === fetching) {
            this.fetching.delete(venue);
          }
        }),
    };
    // A read nobody waits for any more must not reject unheard.
    fetching.done.catch(() => undefined);
    this.fetching.set(venue, fetching);
    return fetching.done;
  }

  private store(venue: string, markets: VenueMarket[]): CachedMarkets {
    const byCanonical = new Map<string, VenueMarket[]>();
    for (const market of markets) {
      byCanonical.set(market.canonical, [...(byCanonical.get(market.canonical) ?? []), market]);
    }
    const entry = { loadedAtMs: Date.now(), byCanonical };
    this.cache.set(venue, entry);
    this.logger.debug({ venue, markets: markets.length }, 'market list loaded');
    return entry;
  }
}
