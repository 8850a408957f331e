import type { Readings } from '../dialect-profiles';

/**
 * What Aster's documents leave open, each with the values the dialect can
 * play (see the README's source table and `dialect-profiles.ts`).
 */
export const ASTER_READINGS = {
  /**
   * A post-only (GTX) order that would cross. Aster's v3 error list has no
   * code for it; -5022 is Binance USDⓈ-M's. A venue of that family may
   * instead take the order and expire it (status EXPIRED, nothing filled).
   */
  post_only_cross: {
    values: ['refuse', 'expire'],
    default: 'refuse',
    documented: null,
    source:
      "asterdex/api-docs V3(Recommended)/EN/aster-finance-futures-api-v3.md: timeInForce GTX 'Good Till Crossing (Post Only)'; the error list names no post-only refusal",
  },
} as const satisfies Readings;
