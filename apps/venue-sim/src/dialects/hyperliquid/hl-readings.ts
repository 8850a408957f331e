import type { Readings } from '../dialect-profiles';

/** What Hyperliquid's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const HYPERLIQUID_READINGS = {
  /**
   * An order whose cloid an earlier order of the address already used. The
   * documented error list does not name it; the venue is known to answer
   * "Duplicate cloid" at least while the first order is live.
   */
  duplicate_cloid: {
    values: ['refuse', 'refuse_while_open'],
    default: 'refuse',
    documented: null,
    source:
      'hyperliquid-dex/hyperliquid-python-sdk and the API docs "Error responses": no duplicate-cloid entry',
  },
} as const satisfies Readings;
