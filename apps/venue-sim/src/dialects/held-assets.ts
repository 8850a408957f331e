import Big from 'big.js';
import type { Simulator } from '../engine/simulator';

/** Wrapped tokens a venue lists, and the asset the simulator prices each as. */
const UNDERLYING: Readonly<Record<string, string>> = { WETH: 'ETH', WBTC: 'BTC' };

/**
 * What one unit of an asset a wallet holds is worth in USD, at the
 * simulator's fair price (a wrapped token at its underlying's); undefined
 * for an asset the simulator does not price (BNB, ASTER, PURR). For the
 * venues whose balance answers value each asset (Extended's `indexPrice`,
 * Paradex's entry price).
 */
export function heldAssetPrice(world: Simulator, asset: string): Big | undefined {
  try {
    return new Big(world.prices.fairPrice(UNDERLYING[asset] ?? asset));
  } catch {
    return undefined;
  }
}
