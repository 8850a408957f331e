import { ASTER_READINGS } from './aster/aster-readings';
import type { Readings } from './dialect-profiles';
import { EXTENDED_READINGS } from './extended/extended-readings';
import { HYPERLIQUID_READINGS } from './hyperliquid/hl-readings';
import { LIGHTER_READINGS } from './lighter/lighter-readings';
import { PARADEX_READINGS } from './paradex/paradex-readings';

/** Every dialect's open readings, by venue id. */
export const DIALECT_READINGS: ReadonlyMap<string, Readings> = new Map<string, Readings>([
  ['hyperliquid', HYPERLIQUID_READINGS],
  ['aster', ASTER_READINGS],
  ['paradex', PARADEX_READINGS],
  ['extended', EXTENDED_READINGS],
  ['lighter', LIGHTER_READINGS],
]);
