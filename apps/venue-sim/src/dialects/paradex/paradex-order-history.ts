import { ParadexError } from './paradex-auth';

/** An order as Paradex shows it (the fields the history filters on). */
interface ShownOrder {
  market: string;
  side: string;
  type: string;
  status: string;
  client_id: string;
  created_at: number;
}

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 5000;

/**
 * `GET /v1/orders-history`: the account's orders, open and closed, "filtered
 * on attributes" (https://docs.paradex.trade/api/prod/orders/get-orders;
 * paradex-py `fetch_orders_history`): `client_id`, `market`, `side`,
 * `status` (OPEN, CLOSED, NEW), `type`, `start_at` / `end_at` (creation time,
 * ms), `page_size` (default 100) and `cursor` (the `next` of the page before).
 * Newest first (the documents do not say; a client must not rely on it).
 */
export function orderHistory<T extends ShownOrder>(
  orders: readonly T[],
  query: URLSearchParams,
): { next: string | null; prev: string | null; results: T[] } {
  const start = integer(query.get('start_at'), 0);
  const end = integer(query.get('end_at'), Number.MAX_SAFE_INTEGER);
  const size = Math.min(integer(query.get('page_size'), DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const offset = cursorOffset(query.get('cursor'));
  const exact: [keyof ShownOrder, string | null][] = [
    ['client_id', query.get('client_id')],
    ['market', query.get('market')],
    ['side', query.get('side')],
    ['status', query.get('status')],
    ['type', query.get('type')],
  ];
  const matching = orders
    .filter((order) => order.created_at >= start && order.created_at <= end)
    .filter((order) => exact.every(([field, value]) => value === null || order[field] === value))
    .sort((a, b) => b.created_at - a.created_at);
  const page = matching.slice(offset, offset + size);
  const more = offset + size < matching.length;
  return {
    next: more ? cursorOf(offset + size) : null,
    prev: offset > 0 ? cursorOf(Math.max(0, offset - size)) : null,
    results: page,
  };
}

function integer(text: string | null, fallback: number): number {
  if (text === null) {
    return fallback;
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid request parameter');
  }
  return value;
}

/** The cursor is opaque on the venue; here it is the page's offset, base64-encoded. */
function cursorOf(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64');
}

function cursorOffset(cursor: string | null): number {
  if (cursor === null || cursor === '') {
    return 0;
  }
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString());
  if (!match) {
    throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid cursor');
  }
  return Number(match[1]);
}
