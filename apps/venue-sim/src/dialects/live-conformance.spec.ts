import { runVenueConformance } from '@sts/venues';
import { alternativeProfiles } from './dialect-profiles';
import { DIALECT_READINGS } from './dialect-readings';
import { liveConformanceSetup } from '../testing/live-harness';

// The VenueClient contract run against the live client (ccxt 4.5.84, the
// unmodified pro classes) speaking each venue's own protocol to its dialect,
// exactly as the paper client runs it against the paper protocol; once per
// profile of the dialect (every reading of what the venue's documents leave
// open, one at a time), since the client must be safe under each.
const VENUES: readonly { venue: string; symbol: string; seed: number; note?: string }[] = [
  { venue: 'aster', symbol: 'ETHUSDT', seed: 22 },
  { venue: 'hyperliquid', symbol: 'SOL', seed: 21 },
  { venue: 'paradex', symbol: 'ETH-USD-PERP', seed: 23 },
  { venue: 'extended', symbol: 'ETH-USD', seed: 24 },
  { venue: 'lighter', symbol: 'ETH', seed: 25, note: ', with a stand-in signer' },
];

for (const { venue, symbol, seed, note } of VENUES) {
  for (const { name, profile } of alternativeProfiles(DIALECT_READINGS.get(venue) ?? {})) {
    runVenueConformance(
      `live ${venue} (ccxt) on its dialect${note ?? ''}, profile ${name}`,
      liveConformanceSetup(venue, symbol, seed, profile),
    );
  }
}
