import { paradexPage, queryInteger, type ParadexPage } from './paradex-pages';

/** An order as Paradex shows it (the fields the history filters on). */
interface ShownOrder {
  market: string;
  side: string;
  type: string;
  status: string;
  client_id: string;
  created_at: number;
}

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
): ParadexPage<T> {
  const start = queryInteger(query, 'start_at', 0);
  const end = queryInteger(query, 'end_at', Number.MAX_SAFE_INTEGER);
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
  return paradexPage(matching, query);
}
