import { createAsterDialect } from './aster';
import type { DialectFactory } from './dialect';
import { createExtendedDialect } from './extended';
import { createHyperliquidDialect } from './hyperliquid';
import { createLighterDialect } from './lighter';
import { createParadexDialect } from './paradex';

/** The venue protocols the simulator speaks besides its paper protocol, by venue id. */
export const DIALECTS: ReadonlyMap<string, DialectFactory> = new Map<string, DialectFactory>([
  ['hyperliquid', createHyperliquidDialect],
  ['aster', createAsterDialect],
  ['paradex', createParadexDialect],
  ['extended', createExtendedDialect],
  ['lighter', createLighterDialect],
]);
