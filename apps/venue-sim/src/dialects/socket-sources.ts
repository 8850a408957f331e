import { ipKey } from './published-limits';

/** How many WebSocket connections one source address opened to a dialect. */
export interface SocketSourceCount {
  /** `ip:<source address>`, as the per-IP pools key it. */
  key: string;
  opened: number;
}

/**
 * The addresses the dialects' WebSocket connections come from, per venue: a
 * venue caps connections per IP (Hyperliquid H2, Paradex P8, Lighter L6 in
 * docs/venues/rate-limits.md), so which address a client's sockets leave
 * from matters as much as its requests'. Not enforced (no dialect models
 * those limits); read out for specs (`/control/dialects/:venue/socket-sources`).
 */
export class SocketSources {
  private readonly byVenue = new Map<string, Map<string, number>>();

  opened(venue: string, source: string): void {
    let counts = this.byVenue.get(venue);
    if (!counts) {
      counts = new Map();
      this.byVenue.set(venue, counts);
    }
    const key = ipKey(source);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  /** Each source of the venue's connections, in the order it first opened one. */
  of(venue: string): SocketSourceCount[] {
    return [...(this.byVenue.get(venue) ?? [])].map(([key, opened]) => ({ key, opened }));
  }

  clear(): void {
    this.byVenue.clear();
  }
}
