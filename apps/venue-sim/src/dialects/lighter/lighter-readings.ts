import type { Readings } from '../dialect-profiles';

/** What Lighter's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const LIGHTER_READINGS = {} as const satisfies Readings;
