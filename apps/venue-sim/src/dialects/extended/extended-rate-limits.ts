import type { LimitedRequest, PublishedTable } from '../published-limits';

/**
 * Extended's published limit (docs/venues/rate-limits.md §4, read from
 * word-for-word copies of api.docs.extended.exchange "#rate-limits"): E1,
 * 1000 requests a minute per IP, "shared across all endpoints", every request
 * one. Not modelled: the market makers' 60,000 per 5 minutes (E2: our
 * accounts are not market makers) and the open-order cap per market (E3).
 */
export const EXTENDED_RATE_LIMITS: PublishedTable = {
  venue: 'extended',
  pools: [{ id: 'E1', scope: 'ip', windowMs: 60_000, capacity: 1000, weights: { rest: 1 } }],
};

/** Every REST request of the API, public or private. */
export const EXTENDED_REQUEST: LimitedRequest = { kind: 'rest' };
