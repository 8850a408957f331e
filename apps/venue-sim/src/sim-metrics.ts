import { Counter, type Registry } from 'prom-client';
import { createServiceRegistry } from '@sts/platform';

/**
 * The simulator's own request counts, per venue (the first path segment that
 * names one of its venues, else `other`) and status, 429s included: what the
 * venues saw, to set beside what the workers say they sent.
 */
export class VenueSimMetrics {
  readonly registry: Registry = createServiceRegistry('venue-sim');
  private venues = new Set<string>();
  private readonly requests = new Counter<'venue' | 'status'>({
    name: 'sts_venue_sim_requests_total',
    help: 'HTTP requests the simulator answered, by venue and status',
    labelNames: ['venue', 'status'],
    registers: [this.registry],
  });

  knowVenues(venues: Iterable<string>): void {
    this.venues = new Set(venues);
  }

  recordAnswered(path: string, status: number): void {
    const segments = path.split('?')[0].split('/');
    const venue = segments.find((segment) => this.venues.has(segment)) ?? 'other';
    this.requests.inc({ venue, status: String(status) });
  }
}
