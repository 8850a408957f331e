import type { VenueProfile } from './market-spec';
import { VENUE_PROFILES } from './venue-profiles';

/**
 * The venues one simulator serves. Each entry is a known venue id, or
 * `id=template` for a further venue shaped like a known one (a second paper
 * venue for a test), so one process can serve any number of venues.
 */
export function resolveVenueProfiles(entries?: readonly string[]): VenueProfile[] {
  if (!entries || entries.length === 0) {
    return [...VENUE_PROFILES];
  }
  const ids = new Set<string>();
  return entries.map((entry) => {
    const [id, template = id] = entry.split('=').map((part) => part.trim());
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(id)) {
      throw new Error(`bad venue id "${id}"`);
    }
    if (ids.has(id)) {
      throw new Error(`venue ${id} listed twice`);
    }
    ids.add(id);
    const profile = VENUE_PROFILES.find((candidate) => candidate.id === template);
    if (!profile) {
      throw new Error(
        `no venue profile "${template}" (known: ${VENUE_PROFILES.map((p) => p.id).join(', ')})`,
      );
    }
    return { ...profile, id };
  });
}
