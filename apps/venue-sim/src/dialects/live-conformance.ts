import { LIVE_BATCH_VENUES, runVenueConformance } from '@sts/venues';
import { liveConformanceSetup } from '../testing/live-harness';
import { conformanceProfiles } from './dialect-profiles';
import { DIALECT_READINGS } from './dialect-readings';

/**
 * The VenueClient contract run against the live client (ccxt 4.5.84, the
 * unmodified pro classes) speaking a venue's own protocol to its dialect,
 * exactly as the paper client runs it against the paper protocol; once per
 * profile of the dialect (every reading of what the venue's documents leave
 * open, one at a time, but those that play on reduce-only orders only, which
 * the suite never sends, and those of batches where the client sends none),
 * since the client must be safe under each. One spec
 * file per venue, so the venues run side by side.
 */
export function runLiveConformance(venue: string, symbol: string, seed: number, note = ''): void {
  const readings = DIALECT_READINGS.get(venue) ?? {};
  for (const { name, profile } of conformanceProfiles(readings, LIVE_BATCH_VENUES.has(venue))) {
    runVenueConformance(
      `live ${venue} (ccxt) on its dialect${note}, profile ${name}`,
      liveConformanceSetup(venue, symbol, seed, profile),
    );
  }
}
