import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import { decimalsOf } from '../../api/wire-numbers';

/** Decimal places of a power-of-ten step (`0.01` → 2): Lighter scales amounts and prices by them. */
export { decimalsOf };

/** Market indices are the markets' places in the venue's profile. */
export function marketIndexOf(venue: VenueEngine, symbol: string): number {
  return venue.profile.markets.findIndex((m) => m.symbol === symbol);
}

export function marketAt(venue: VenueEngine, index: number): MarketState | undefined {
  const spec = venue.profile.markets[index];
  return spec ? venue.markets.get(spec.symbol) : undefined;
}
