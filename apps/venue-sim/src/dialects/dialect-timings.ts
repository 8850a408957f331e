/**
 * The times some readings play with (`dialect-profiles.ts`): how long a
 * venue holds a placement queued under `order_queue=held`
 * (`queue_hold_ms`), how far behind the present Paradex's order history is
 * under `history_lag=lagging` (`history_lag_ms`). The venues document the
 * queue and the history but no duration, so a test sets the time it needs.
 * Set through `/control/dialects/:venue/timing`; a world reset keeps them
 * (settings of the venue, like its profile).
 */
export const TIMING_NAMES = ['queue_hold_ms', 'history_lag_ms'] as const;
export type TimingName = (typeof TIMING_NAMES)[number];

/** The times one dialect has, with their defaults (a time no reading of it uses is absent). */
export type Timings = Readonly<Partial<Record<TimingName, number>>>;

/** The longest time a control may set: a test's hold, not a venue's outage. */
export const MAX_TIMING_MS = 60_000;

export class InvalidTimingError extends Error {
  readonly code = 'invalid_timing';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidTimingError';
  }
}

/** No reading of this venue plays with a time (it has no dialect, or none of those readings). */
export class UnknownDialectTimings extends Error {
  constructor(venue: string) {
    super(`no dialect timings for ${venue}`);
    this.name = 'UnknownDialectTimings';
  }
}

/** The times one dialect reads (live: it sees later changes). */
export interface DialectTiming {
  /** The time in ms; a dialect asks only for the times it registered. */
  ms(name: TimingName): number;
}

/**
 * Every dialect's times: the one owner of their values. Changed only through
 * `set`, all or nothing.
 */
export class DialectTimings {
  private readonly values = new Map<string, Map<TimingName, number>>();

  constructor(
    defaults: ReadonlyMap<string, Timings>,
    initial: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  ) {
    for (const [venue, timings] of defaults) {
      this.values.set(venue, new Map(Object.entries(timings) as [TimingName, number][]));
    }
    for (const [venue, timings] of Object.entries(initial)) {
      this.set(venue, timings);
    }
  }

  of(venue: string): DialectTiming {
    const values = this.valuesOf(venue);
    return {
      ms: (name) => {
        const value = values.get(name);
        if (value === undefined) {
          throw new InvalidTimingError(`${venue} has no ${name}`);
        }
        return value;
      },
    };
  }

  /** Every time by name, null where no reading of the venue uses it. */
  describe(venue: string): Record<TimingName, number | null> {
    const values = this.valuesOf(venue);
    return Object.fromEntries(
      TIMING_NAMES.map((name) => [name, values.get(name) ?? null]),
    ) as Record<TimingName, number | null>;
  }

  /**
   * Sets some times of a venue: each a whole number of ms from 0 to
   * MAX_TIMING_MS, of a time the venue has; one bad entry changes none.
   */
  set(
    venue: string,
    timings: Readonly<Record<string, unknown>>,
  ): Record<TimingName, number | null> {
    const values = this.valuesOf(venue);
    for (const [name, value] of Object.entries(timings)) {
      if (!values.has(name as TimingName)) {
        const known = [...values.keys()].join(', ');
        throw new InvalidTimingError(`${venue} has no ${name} (its times: ${known})`);
      }
      if (
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 0 ||
        value > MAX_TIMING_MS
      ) {
        throw new InvalidTimingError(
          `${name} must be a whole number of ms from 0 to ${MAX_TIMING_MS}`,
        );
      }
    }
    for (const [name, value] of Object.entries(timings)) {
      values.set(name as TimingName, value as number);
    }
    return this.describe(venue);
  }

  private valuesOf(venue: string): Map<TimingName, number> {
    const values = this.values.get(venue);
    if (!values) {
      throw new UnknownDialectTimings(venue);
    }
    return values;
  }
}
