import { ParadexError } from './paradex-auth';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 5000;

/** One page of a Paradex list: `results`, and the cursors of the pages after and before it. */
export interface ParadexPage<T> {
  next: string | null;
  prev: string | null;
  results: T[];
}

/**
 * A page of Paradex's paginated lists (`GET /orders-history`, `GET
 * /funding/payments`): `page_size` items (default 100, at most 5000: the
 * API reference's `page_size` ">=1 <=5000", default 100; more is taken as
 * 5000) from `cursor` (the `next` or `prev` of a page before), `next` null
 * on the last page. `items` come in the order the list gives them.
 */
export function paradexPage<T>(items: readonly T[], query: URLSearchParams): ParadexPage<T> {
  const size = Math.min(queryInteger(query, 'page_size', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  if (size < 1) {
    throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid request parameter');
  }
  const offset = cursorOffset(query.get('cursor'));
  return {
    next: offset + size < items.length ? cursorOf(offset + size) : null,
    prev: offset > 0 ? cursorOf(Math.max(0, offset - size)) : null,
    results: items.slice(offset, offset + size),
  };
}

/** A whole, non-negative query parameter (ms times, sizes), or `fallback` when absent. */
export function queryInteger(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) {
    return fallback;
  }
  const value = Number(text);
  if (text === '' || !Number.isSafeInteger(value) || value < 0) {
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
