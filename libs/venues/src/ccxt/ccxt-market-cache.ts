import type { FundingRate, MarketInterface, Ticker } from 'ccxt';
import { OrderRejectedError } from '../errors';
import type { VenueMarket } from '../model/market';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { FundingMarketNames } from './ccxt-funding';
import { isTradablePerp, toMarket } from './ccxt-mapping';
import { sharedRead } from './shared-markets';

interface CachedMarket {
  unified: string;
  market: VenueMarket;
}

/**
 * The venue's perpetuals as ccxt lists them, keyed both by the venue's
 * native symbol (what VenueClient callers use) and by ccxt's unified symbol
 * (what ccxt calls take and return). Funding and tickers are best effort:
 * when the venue cannot give them, the optional fields are left out.
 */
export class CcxtMarketCache {
  private readonly byNative = new Map<string, CachedMarket>();
  private readonly byUnified = new Map<string, CachedMarket>();

  constructor(
    private readonly exchange: CcxtExchangeLike,
    private readonly venue: string,
  ) {}

  /**
   * The venue's perpetuals with their funding and tickers. The listing itself
   * is the process's shared load (shared-markets.ts), at most an hour old: a
   * reload per read cost Hyperliquid 80 of its 1,200 weight a minute per IP,
   * twice per client connect. Funding and tickers are shared by the process's
   * instances for 30 s (`sharedRead`).
   */
  async load(): Promise<VenueMarket[]> {
    const markets = Object.values(await this.exchange.loadMarkets()).filter(isTradablePerp);
    const symbols = markets.map((market) => market.symbol);
    const listed = symbols.join(',');
    const [funding, tickers] = await Promise.all([
      this.optional(() =>
        sharedRead(this.exchange, `funding:${listed}`, async () =>
          this.exchange.fetchFundingRates?.(symbols),
        ),
      ),
      this.optional(() =>
        sharedRead(this.exchange, `tickers:${listed}`, async () =>
          this.exchange.fetchTickers?.(symbols),
        ),
      ),
    ]);
    return markets.map((market) =>
      this.remember(market, funding?.[market.symbol], tickers?.[market.symbol]),
    );
  }

  get loaded(): boolean {
    return this.byNative.size > 0;
  }

  /** ccxt's unified symbol for a native one; refuses symbols the venue does not list. */
  unified(nativeSymbol: string): string {
    const cached = this.byNative.get(nativeSymbol);
    if (!cached) {
      throw new OrderRejectedError(this.venue, 'unknown_market', `unknown market ${nativeSymbol}`);
    }
    return cached.unified;
  }

  /** Some listed market's unified symbol (for requests that need one, whichever). */
  /** The unified symbol of every market listed. */
  allUnified(): string[] {
    return [...this.byUnified.keys()];
  }

  anyUnified(): string {
    const first = this.byUnified.keys().next();
    if (first.done) {
      throw new OrderRejectedError(this.venue, 'unknown_market', 'no markets loaded');
    }
    return first.value;
  }

  /** The unified symbols of the listed markets of a canonical one (Aster lists HYPE twice). */
  unifiedOfCanonical(canonical: string): string[] {
    return [...this.byUnified.values()]
      .filter((cached) => cached.market.canonical === canonical)
      .map((cached) => cached.unified);
  }

  /** Native and canonical symbols for a unified one (as found on ccxt orders and trades). */
  names(unified: string | undefined): { symbol: string; market: string } {
    const cached = unified ? this.byUnified.get(unified) : undefined;
    return cached
      ? { symbol: cached.market.entry.symbol, market: cached.market.canonical }
      : { symbol: unified ?? '', market: unified ?? '' };
  }

  /**
   * A market's names and margin asset (a funding payment's); for a market
   * not listed (delisted since), the unified symbol and its settle part.
   */
  fundingNames(unified: string): FundingMarketNames {
    const cached = this.byUnified.get(unified);
    return cached
      ? {
          symbol: cached.market.entry.symbol,
          market: cached.market.canonical,
          marginAsset: cached.market.marginAsset,
        }
      : { symbol: unified, market: unified, marginAsset: unified.split(':')[1] ?? '' };
  }

  private remember(market: MarketInterface, funding?: FundingRate, ticker?: Ticker): VenueMarket {
    const mapped = toMarket(market, { funding, ticker }, this.exchange.precisionMode, this.venue);
    const cached = { unified: market.symbol, market: mapped };
    this.byNative.set(mapped.entry.symbol, cached);
    this.byUnified.set(market.symbol, cached);
    return mapped;
  }

  private async optional<T>(fetch: () => Promise<T> | undefined): Promise<T | undefined> {
    try {
      return await fetch();
    } catch {
      return undefined;
    }
  }
}
