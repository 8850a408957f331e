import type { EngineFill } from '../../engine/types';
import { numericId } from '../engine-ids';

/**
 * The most trades one answer holds: "The endpoint returns a maximum of
 * 10,000 records; pagination should be used to access records beyond this
 * limit." (docs "Get trades"). Also the page when a request names no
 * `limit`: the documents give no other default (assumed).
 */
export const TRADES_PAGE_MAX = 10_000;

/** Trade types a request may filter by (docs "Get trades": `trade`, `liquidation`, `deleverage`). */
const TRADE_TYPE = 'trade';

/** One page of the account's trades and the venue's `pagination` of it. */
export interface TradesPage<T> {
  data: T[];
  /** `cursor`: the id of the page's last trade, to pass back for the page after it. */
  pagination: { cursor?: number; count: number };
}

/**
 * `GET /api/v1/user/trades` as Extended pages it (docs "Pagination" and "Get
 * trades"): items "sorted in descending order by ID", the most recent first
 * (ids grow with time); `cursor`, "the ID of the item after which you want
 * to retrieve the next result", gives the trades older than it; `limit`
 * caps the page, at most `TRADES_PAGE_MAX`; `market` (repeated for several),
 * `type` and `side` filter. The documents name no time filter: a reader of a
 * window pages back until it passes the window's start. `fills` are the
 * account's, oldest first, as the engine records them; `view` gives one as
 * the venue does. An empty page carries no cursor (assumed).
 */
export function tradesPage<T>(
  fills: readonly EngineFill[],
  query: URLSearchParams,
  view: (fill: EngineFill) => T,
): TradesPage<T> {
  const markets = new Set(query.getAll('market'));
  const side = query.get('side')?.toLowerCase();
  const type = query.get('type')?.toLowerCase();
  const cursor = query.has('cursor') ? Number(query.get('cursor')) : Infinity;
  const limit = pageLimit(query.get('limit'));
  const page: EngineFill[] = [];
  if (type === undefined || type === TRADE_TYPE) {
    for (let index = fills.length - 1; index >= 0 && page.length < limit; index -= 1) {
      const fill = fills[index]!;
      if (
        numericId(fill.fillId) < cursor &&
        (markets.size === 0 || markets.has(fill.symbol)) &&
        (side === undefined || side === fill.side)
      ) {
        page.push(fill);
      }
    }
  }
  const last = page.at(-1);
  return {
    data: page.map(view),
    pagination: {
      ...(last ? { cursor: numericId(last.fillId) } : {}),
      count: page.length,
    },
  };
}

/** A request's `limit`, within 1 and the maximum; absent or not a count, the maximum (assumed). */
function pageLimit(value: string | null): number {
  const limit = Number(value);
  return value !== null && Number.isInteger(limit) && limit >= 1
    ? Math.min(limit, TRADES_PAGE_MAX)
    : TRADES_PAGE_MAX;
}
