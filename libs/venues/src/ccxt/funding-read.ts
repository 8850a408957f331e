import type { FundingHistory, Market } from 'ccxt';
import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import {
  asterFunding,
  extendedFunding,
  hyperliquidFunding,
  lighterFunding,
  paradexFunding,
  type FundingEntry,
} from './ccxt-funding';

type Raw = Record<string, unknown>;

/** ccxt 4.5.84's unified read of the account's funding payments. */
type HistoryReader = CcxtExchangeLike & {
  fetchFundingHistory(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Raw,
  ): Promise<FundingHistory[]>;
};

/** Paradex's instance: its JWT (renewed by paradex-jwt.ts) and the implicit private GET. */
type ParadexReader = CcxtExchangeLike & {
  authenticateRest(params?: Raw): Promise<unknown>;
  privateGetFundingPayments(params: Raw): Promise<Raw>;
};

/** Lighter's instance: its account, its signer, and the implicit private GET. */
type LighterReader = CcxtExchangeLike & {
  options: Raw;
  preLoadLighterLibrary(params?: Raw): Promise<unknown>;
  privateGetPositionFunding(params: Raw): Promise<Raw>;
};

/** How a venue's funding answer is paged: its rows per request, and the most requests one read sends. */
interface FundingPages {
  size: number;
  most: number;
}

/**
 * Hyperliquid: "Responses for time-range endpoints return at most 500
 * elements … use the last returned timestamp as the next startTime for
 * pagination" (info endpoint, Pagination). Aster: `limit` "Default 100; max
 * 1000" (v3 "Get Income History"). Paradex: `page_size` (ccxt caps it at
 * 5,000), pages chained by the answer's `next`. Lighter: `limit` 1 to 100
 * (apidocs "positionFunding"), pages chained by `next_cursor`. Extended:
 * ccxt's pages of `limit`, chained by `pagination.cursor` (fills-read.ts:
 * ten of 1,000 cover the 10,000 rows it answers at most).
 */
const PAGES: Readonly<Record<string, FundingPages>> = {
  hyperliquid: { size: 500, most: 20 },
  aster: { size: 1_000, most: 20 },
  paradex: { size: 1_000, most: 20 },
  lighter: { size: 100, most: 50 },
  extended: { size: 1_000, most: 10 },
};

export interface FundingReadDeps {
  exchange: CcxtExchangeLike;
  venue: string;
  /**
   * The unified symbols to read where the venue lists funding per market
   * only (Paradex's `market` is required): the caller's choice of markets
   * the account may have held a position in.
   */
  marketsToRead: () => Promise<string[]>;
}

/**
 * The account's funding payments from `sinceMs`, every market, as the
 * venue's answers give them (all pages; not yet filtered or sorted). A
 * window with more payments than the venue's pages `most` requests can
 * hold fails rather than answer with some of them.
 */
export async function fetchFundingSince(
  deps: FundingReadDeps,
  sinceMs: number,
): Promise<FundingEntry[]> {
  const pages = PAGES[deps.venue];
  switch (deps.venue) {
    case 'hyperliquid':
      return pagedByTime(
        deps,
        sinceMs,
        pages,
        (exchange, start) => exchange.fetchFundingHistory(undefined, start),
        hyperliquidFunding,
      );
    case 'aster':
      return pagedByTime(
        deps,
        sinceMs,
        pages,
        (exchange, start) => exchange.fetchFundingHistory(undefined, start, pages.size),
        asterFunding,
      );
    case 'extended':
      return extendedSince(deps, sinceMs, pages);
    case 'paradex':
      return paradexSince(deps, sinceMs, pages);
    case 'lighter':
      return lighterSince(deps, sinceMs, pages);
    default:
      throw new VenueNetworkError(deps.venue, `no funding read for ${deps.venue}`);
  }
}

const tooMany = (venue: string, sinceMs: number, pages: FundingPages): VenueNetworkError =>
  new VenueNetworkError(
    venue,
    `more funding payments since ${sinceMs} than ${pages.most} pages of ${pages.size}: the read stops there`,
  );

/**
 * A venue that pages by time, oldest first (Hyperliquid's `startTime`,
 * Aster's): a full page is followed by the read from its last time. That
 * time is inclusive, so the next page starts with the payments of that
 * instant the last one already held; as many as it held are dropped (the
 * venue's order within an instant is its own, the same on both reads). A
 * full page that is all one instant cannot be paged past: it fails.
 */
async function pagedByTime(
  deps: FundingReadDeps,
  sinceMs: number,
  pages: FundingPages,
  read: (exchange: HistoryReader, startMs: number) => Promise<FundingHistory[]>,
  funding: (income: FundingHistory) => FundingEntry | undefined,
): Promise<FundingEntry[]> {
  const exchange = deps.exchange as HistoryReader;
  const entries: FundingEntry[] = [];
  let start = sinceMs;
  let held = 0;
  for (let page = 0; page < pages.most; page += 1) {
    const answer = await read(exchange, start);
    let dropped = 0;
    const fresh = answer.filter((income) => {
      if (dropped < held && income.timestamp === start) {
        dropped += 1;
        return false;
      }
      return true;
    });
    entries.push(...fresh.flatMap((income) => funding(income) ?? []));
    if (answer.length < pages.size) {
      return entries;
    }
    const last = answer[answer.length - 1].timestamp ?? start;
    if (fresh.length === 0) {
      throw new VenueNetworkError(
        deps.venue,
        `${answer.length} funding payments at ${last}: a page by time cannot reach past them`,
      );
    }
    held = answer.filter((income) => income.timestamp === last).length;
    start = last;
  }
  throw tooMany(deps.venue, sinceMs, pages);
}

/**
 * Extended: ccxt's own pagination of `GET /api/v1/user/funding/history`
 * (`paginate`, cursor `pagination.cursor`), retries off. ccxt sends the
 * time as `startTime`; the venue's document names it `fromTime` (required),
 * so both are sent.
 */
async function extendedSince(
  deps: FundingReadDeps,
  sinceMs: number,
  pages: FundingPages,
): Promise<FundingEntry[]> {
  const exchange = deps.exchange as HistoryReader;
  const history = await exchange.fetchFundingHistory(undefined, sinceMs, undefined, {
    paginate: true,
    maxEntriesPerRequest: pages.size,
    paginationCalls: pages.most,
    maxRetries: 0,
    fromTime: sinceMs,
  });
  if (history.length >= pages.size * pages.most) {
    throw tooMany(deps.venue, sinceMs, pages);
  }
  return history.map(extendedFunding);
}

/** The venue's market ids (Paradex's `BTC-USD-PERP`, Lighter's `0`) to ccxt's unified symbols. */
async function unifiedById(exchange: CcxtExchangeLike): Promise<Map<string, string>> {
  const markets: Record<string, Market> = await exchange.loadMarkets();
  return new Map(
    Object.values(markets).flatMap((market) =>
      market?.id !== undefined ? [[String(market.id), market.symbol] as const] : [],
    ),
  );
}

/**
 * Paradex: `GET /v1/funding/payments?market=&start_at=&page_size=` for each
 * market to read (its `market` is required), following `next` until the
 * venue answers none. ccxt 4.5.84's fetchFundingHistory cannot page it (it
 * drops `next`, so its `paginate` finds no cursor): its implicit
 * `privateGetFundingPayments` is called, after the JWT it needs.
 */
async function paradexSince(
  deps: FundingReadDeps,
  sinceMs: number,
  pages: FundingPages,
): Promise<FundingEntry[]> {
  const exchange = deps.exchange as ParadexReader;
  const markets: Record<string, Market> = await exchange.loadMarkets();
  const entries: FundingEntry[] = [];
  for (const unified of await deps.marketsToRead()) {
    const id = markets[unified]?.id ?? unified;
    let cursor: string | undefined;
    let done = false;
    for (let page = 0; page < pages.most && !done; page += 1) {
      await exchange.authenticateRest();
      const answer = await exchange.privateGetFundingPayments({
        market: id,
        start_at: sinceMs,
        page_size: pages.size,
        ...(cursor ? { cursor } : {}),
      });
      const results = Array.isArray(answer['results']) ? (answer['results'] as Raw[]) : [];
      entries.push(...results.map((raw) => paradexFunding(raw, unified)));
      cursor = typeof answer['next'] === 'string' && answer['next'] !== '' ? answer['next'] : '';
      done = !cursor || results.length === 0;
    }
    if (!done) {
      throw tooMany(deps.venue, sinceMs, pages);
    }
  }
  return entries;
}

/**
 * Lighter: `GET /api/v1/positionFunding?account_index=&limit=&start_timestamp=`
 * with the auth token (ccxt's implicit `privateGetPositionFunding`; the
 * signer that makes the token is loaded first), every market at once
 * (`market_id` left out: its default 255 is all), following `next_cursor`.
 * The document does not say the unit of `start_timestamp`: whole seconds
 * are sent, which under a reading in milliseconds only asks for more; and a
 * page that is newest first and reaches before `sinceMs` is the last.
 */
async function lighterSince(
  deps: FundingReadDeps,
  sinceMs: number,
  pages: FundingPages,
): Promise<FundingEntry[]> {
  const exchange = deps.exchange as LighterReader;
  await exchange.preLoadLighterLibrary();
  const unified = await unifiedById(exchange);
  const entries: FundingEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < pages.most; page += 1) {
    const answer = await exchange.privateGetPositionFunding({
      account_index: exchange.options['accountIndex'],
      limit: pages.size,
      start_timestamp: Math.floor(sinceMs / 1000),
      ...(cursor ? { cursor } : {}),
    });
    const rows = Array.isArray(answer['position_fundings'])
      ? (answer['position_fundings'] as Raw[])
      : [];
    const read = rows.map((raw) =>
      lighterFunding(raw, unified.get(String(raw['market_id'])) ?? String(raw['market_id'])),
    );
    entries.push(...read);
    cursor = typeof answer['next_cursor'] === 'string' ? answer['next_cursor'] : '';
    const first = read[0];
    const last = read[read.length - 1];
    const pastSince = !!first && !!last && first.timeMs > last.timeMs && last.timeMs < sinceMs;
    if (!cursor || read.length === 0 || pastSince) {
      return entries;
    }
  }
  throw tooMany(deps.venue, sinceMs, pages);
}
