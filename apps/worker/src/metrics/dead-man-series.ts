import { Counter, Gauge, type Registry } from 'prom-client';

/** An account's switch as the gauges read it at scrape time: its venue only, never its wallet. */
export interface DeadManReading {
  venue: string;
  state: string;
  lastRefreshAtMs: number | null;
}

/** The states counted per venue: an account held by trades whose switch is armed, refused or failing. */
const COUNTED_STATES = ['armed', 'unavailable', 'failing'] as const;

/**
 * The accounts' dead-man switches: accounts per (venue, state) and the age
 * of the oldest refresh among armed ones, computed when scraped; every venue
 * seen keeps its series (0 rather than vanishing). Idle accounts (no trade
 * holds them) and venues without a switch are not counted.
 */
export function registerDeadManGauges(
  registers: Registry[],
  readings: () => DeadManReading[],
): void {
  const venues = new Set<string>();
  new Gauge<'venue' | 'state'>({
    name: 'sts_worker_dead_man_accounts',
    help: "Venue accounts held by this worker's trades, by the state of their dead-man switch (armed, unavailable: refused by the venue, failing: arming failed)",
    labelNames: ['venue', 'state'],
    registers,
    collect() {
      const counts = new Map<string, number>();
      for (const { venue, state } of readings()) {
        if ((COUNTED_STATES as readonly string[]).includes(state)) {
          venues.add(venue);
          counts.set(`${venue}\u0000${state}`, (counts.get(`${venue}\u0000${state}`) ?? 0) + 1);
        }
      }
      for (const venue of venues) {
        for (const state of COUNTED_STATES) {
          this.set({ venue, state }, counts.get(`${venue}\u0000${state}`) ?? 0);
        }
      }
    },
  });
  new Gauge<'venue'>({
    name: 'sts_worker_dead_man_refresh_age_seconds',
    help: 'Per venue, the age of the oldest last refresh among armed dead-man switches (a third of WORKER_DEAD_MAN_TIMEOUT_MS when healthy)',
    labelNames: ['venue'],
    registers,
    collect() {
      this.reset();
      const now = Date.now();
      const oldest = new Map<string, number>();
      for (const { venue, state, lastRefreshAtMs } of readings()) {
        if (state === 'armed' && lastRefreshAtMs !== null) {
          oldest.set(venue, Math.max(oldest.get(venue) ?? 0, now - lastRefreshAtMs));
        }
      }
      for (const [venue, ageMs] of oldest) {
        this.set({ venue }, ageMs / 1000);
      }
    },
  });
}

/** Armings refused by the venue (`refused`) or failed on the way (`failed`), per venue. */
export function deadManFailures(registers: Registry[]): Counter<'venue' | 'kind'> {
  return new Counter<'venue' | 'kind'>({
    name: 'sts_worker_dead_man_arm_failures_total',
    help: 'Dead-man switch armings not in force: refused by the venue (refused) or failed on the way (failed)',
    labelNames: ['venue', 'kind'],
    registers,
  });
}
