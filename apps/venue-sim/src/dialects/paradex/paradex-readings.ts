import type { Readings } from '../dialect-profiles';

/** What Paradex's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const PARADEX_READINGS = {
  /**
   * `GET /orders/by_client_id/{client_id}`: documented as "Get an open
   * order by client id"; whether a closed order is still found is not said.
   */
  client_id_lookup: {
    values: ['open_only', 'any'],
    default: 'open_only',
    documented: 'open_only',
    source:
      'docs.paradex.trade API reference, Orders: "Get order by client id" (open orders; closed orders are in /orders-history)',
  },
} as const satisfies Readings;
