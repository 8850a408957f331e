import { ASTER_READINGS } from './aster/aster-readings';
import type { Readings } from './dialect-profiles';
import type { Timings } from './dialect-timings';
import { EXTENDED_READINGS, EXTENDED_TIMINGS } from './extended/extended-readings';
import { HYPERLIQUID_READINGS } from './hyperliquid/hl-readings';
import { LIGHTER_READINGS, LIGHTER_TIMINGS } from './lighter/lighter-readings';
import { PARADEX_READINGS, PARADEX_TIMINGS } from './paradex/paradex-readings';

/** Every dialect's open readings, by venue id. */
export const DIALECT_READINGS: ReadonlyMap<string, Readings> = new Map<string, Readings>([
  ['hyperliquid', HYPERLIQUID_READINGS],
  ['aster', ASTER_READINGS],
  ['paradex', PARADEX_READINGS],
  ['extended', EXTENDED_READINGS],
  ['lighter', LIGHTER_READINGS],
]);

/** The times of the dialects whose readings play with one (`dialect-timings.ts`), by venue id. */
export const DIALECT_TIMINGS: ReadonlyMap<string, Timings> = new Map<string, Timings>([
  ['paradex', PARADEX_TIMINGS],
  ['extended', EXTENDED_TIMINGS],
  ['lighter', LIGHTER_TIMINGS],
]);
