import type { Trade } from 'ccxt';
import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';

/** How a venue's fills answer is paged: its rows per request, and the most requests one read sends. */
interface FillPages {
  size: number;
  most: number;
}

/**
 * Venues whose fills answer comes a page at a time and whose ccxt
 * `fetchMyTrades` pages it when asked (`paginate`). Extended's `GET
 * /api/v1/user/trades` gives the newest first, `limit` at a time (10,000 at
 * most), with `pagination.cursor` for the page after; it takes no time
 * filter, so a read from a time pages back from the newest until a page
 * reaches past that time (ccxt's `fetchPaginatedCallCursor`: it stops at
 * the first page whose oldest trade, the one that carries the cursor, falls
 * before `since`). Every request weighs the same (E1), so pages are large;
 * ten of them cover the 10,000 rows the venue puts in one answer at most.
 */
const PAGED_FILLS: Partial<Record<string, FillPages>> = {
  extended: { size: 1_000, most: 10 },
};

/**
 * The account's fills on `symbol` (every market where the venue allows)
 * from `sinceMs`, as ccxt parses them. On a paged venue, all the pages that
 * reach into the window: ccxt's own pagination, with its retries off (a
 * refusal is the caller's to handle, not something to resend at once) and a
 * bound on requests; a window with more fills than the bound fails rather
 * than answer with some of them.
 */
export async function fetchFillsSince(
  exchange: CcxtExchangeLike,
  venue: string,
  symbol: string | undefined,
  sinceMs: number,
): Promise<Trade[]> {
  const pages = PAGED_FILLS[venue];
  if (!pages) {
    return exchange.fetchMyTrades(symbol, sinceMs);
  }
  const trades = await exchange.fetchMyTrades(symbol, sinceMs, undefined, {
    paginate: true,
    maxEntriesPerRequest: pages.size,
    paginationCalls: pages.most,
    maxRetries: 0,
  });
  if (trades.length >= pages.size * pages.most) {
    throw new VenueNetworkError(
      venue,
      `${trades.length} fills or more since ${sinceMs}: a read stops at ${pages.most} pages of ${pages.size}`,
    );
  }
  return trades;
}
