import type { CcxtExchangeLike } from './ccxt-exchange-like';

/** After this long a new instance loads the markets itself, and is the source from then on. */
export const SHARED_MARKETS_FRESH_MS = 3_600_000;

interface MarketSource {
  /** Resolves to the instance once its markets are loaded. */
  loaded: Promise<CcxtExchangeLike>;
  startedAtMs: number;
}

/** Per venue and endpoint: the load of this process whose markets the other instances take. */
const SOURCES = new Map<string, MarketSource>();

type SharingExchange = CcxtExchangeLike & {
  markets?: unknown;
  setMarketsFromExchange(source: CcxtExchangeLike): unknown;
};

/**
 * Loads a venue's markets once per process, not once per ccxt instance.
 * Every account session, market-data client and market refresh has its own
 * instance, and ccxt's `loadMarkets` is several of the venue's dearest reads
 * (Hyperliquid: metaAndAssetCtxs, spotMetaAndAssetCtxs and perpDexs, 20 of
 * its 1,200 weight a minute per IP each): a worker opening the accounts of a
 * few traders spent the whole minute on them, and its hedges met 429s. The
 * first instance to load is the source; every other one, made before or
 * after, waits for that load and takes its markets with ccxt's own
 * `setMarketsFromExchange` (helper options too). A load older than an hour,
 * or one that failed, is not shared: the next instance loads again.
 */
export function shareMarkets(
  exchange: CcxtExchangeLike,
  key: string,
  now: () => number = Date.now,
): void {
  markShared(exchange, key);
  const sharing = exchange as SharingExchange;
  const load = exchange.loadMarkets.bind(exchange);
  exchange.loadMarkets = async (reload?: boolean) => {
    const source = SOURCES.get(key);
    if (!reload && sharing.markets) {
      return load(false);
    }
    if (!reload && source && now() - source.startedAtMs < SHARED_MARKETS_FRESH_MS) {
      const loaded = await source.loaded.catch(() => undefined);
      if (loaded && loaded !== exchange) {
        sharing.setMarketsFromExchange(loaded);
        return load(false);
      }
    }
    const mine: MarketSource = { loaded: load(reload).then(() => exchange), startedAtMs: now() };
    SOURCES.set(key, mine);
    try {
      await mine.loaded;
    } catch (error) {
      if (SOURCES.get(key) === mine) {
        SOURCES.delete(key);
      }
      throw error;
    }
    return load(false);
  };
}

/** How long a funding or ticker read of a venue serves every instance of the process. */
export const SHARED_READ_FRESH_MS = 30_000;

const SHARE_KEYS = new WeakMap<object, string>();
const READS = new Map<string, { value: Promise<unknown>; atMs: number }>();

/** Marks `exchange` as one of the instances sharing `key` (shareMarkets does). */
function markShared(exchange: CcxtExchangeLike, key: string): void {
  SHARE_KEYS.set(exchange, key);
}

/**
 * A public read every instance of the process may share for a while
 * (funding rates, tickers): Hyperliquid answers both from
 * metaAndAssetCtxs, 20 weight, and every market read asked for both.
 * Instances not made by createCcxtExchange (tests' stand-ins) read alone.
 */
export function sharedRead<T>(
  exchange: CcxtExchangeLike,
  what: string,
  read: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const key = SHARE_KEYS.get(exchange);
  if (key === undefined) {
    return read();
  }
  const id = `${key}|${what}`;
  const shared = READS.get(id);
  if (shared && now() - shared.atMs < SHARED_READ_FRESH_MS) {
    return shared.value as Promise<T>;
  }
  const value = read();
  READS.set(id, { value, atMs: now() });
  value.catch(() => READS.get(id)?.value === value && READS.delete(id));
  return value;
}
