import type { CcxtExchangeLike } from './ccxt-exchange';

/** After this long a new instance loads the markets itself, and is the source from then on. */
export const SHARED_MARKETS_FRESH_MS = 3_600_000;

interface MarketSource {
  exchange: CcxtExchangeLike;
  loadedAtMs: number;
}

/** Per venue and endpoint: the instance of this process whose loaded markets the next ones take. */
const SOURCES = new Map<string, MarketSource>();

type SharingExchange = CcxtExchangeLike & {
  setMarketsFromExchange(source: CcxtExchangeLike): unknown;
};

/**
 * Loads a venue's markets once per process, not once per ccxt instance.
 * Every account session, market-data client and market refresh has its own
 * instance, and ccxt's `loadMarkets` is several of the venue's dearest reads
 * (Hyperliquid: metaAndAssetCtxs, spotMetaAndAssetCtxs and perpDexs, 20 of
 * its 1,200 weight a minute per IP each): a worker opening the accounts of a
 * few traders spent the whole minute on them, and its hedges met 429s. An
 * instance made while another's markets are fresh takes them with ccxt's own
 * `setMarketsFromExchange` (its helper options too); otherwise it loads them
 * and is the source for the next ones.
 */
export function shareMarkets(
  exchange: CcxtExchangeLike,
  key: string,
  now: () => number = Date.now,
): void {
  const source = SOURCES.get(key);
  if (source && now() - source.loadedAtMs < SHARED_MARKETS_FRESH_MS) {
    (exchange as SharingExchange).setMarketsFromExchange(source.exchange);
    return;
  }
  const load = exchange.loadMarkets.bind(exchange);
  exchange.loadMarkets = async (reload?: boolean) => {
    const markets = await load(reload);
    SOURCES.set(key, { exchange, loadedAtMs: now() });
    return markets;
  };
}
