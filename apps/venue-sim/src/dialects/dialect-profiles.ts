/**
 * Where a venue's published documents are silent about a behaviour, or say
 * two things, a dialect cannot know which the real venue does. Each such
 * behaviour is a reading with a value per plausible answer; a dialect's
 * profile is the value it plays for each reading. The live client must be
 * safe under every one, so the live conformance suite and the live
 * end-to-end tests run under every profile (`alternativeProfiles`; the
 * suite skips readings it cannot meet, `conformanceProfiles`).
 *
 * A profile is set at start (`VENUE_SIM_DIALECT_PROFILE`, e.g.
 * `aster.post_only_cross=expire,paradex.client_id_lookup=open_only`) and
 * switched while running through `/control/dialects/:venue/profile`.
 */

/** One behaviour the venue leaves open: the values a dialect can play, and which it plays unless told. */
export interface Reading<V extends string = string> {
  readonly values: readonly V[];
  /** What the dialect plays by default: the documented answer where there is one. */
  readonly default: V;
  /** The documented answer, or null where the venue says nothing (every value is a guess). */
  readonly documented: V | null;
  /** Where the question comes from: the venue's page or SDK file, and what it does (not) say. */
  readonly source: string;
  /**
   * `reduce_only`: the reading plays on reduce-only orders only, `batch` on
   * batch requests (several orders in one request) only; the conformance
   * suite sends no reduce-only order, and batches only where the live client
   * sends them, so elsewhere its runs under the reading would repeat the
   * default profile's (`conformanceProfiles` leaves it out); the dialect's
   * own specs play each value.
   */
  readonly only?: 'reduce_only' | 'batch';
}

export type Readings = Readonly<Record<string, Reading>>;

/** The value a reading has in a profile. */
export type ValueOf<R extends Readings, K extends keyof R> = R[K]['values'][number];

/** A profile: one value per reading of a venue. */
export type Profile = Readonly<Record<string, string>>;

export class InvalidProfileError extends Error {
  readonly code = 'invalid_profile';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidProfileError';
  }
}

/** The readings one venue's dialect plays, as its code reads them (typed by its readings). */
export interface DialectProfile<R extends Readings> {
  get<K extends keyof R & string>(name: K): ValueOf<R, K>;
}

/**
 * The profiles of every dialect a simulator serves: the one owner of which
 * value each reading has. Changed only through `set`; a world reset keeps them
 * (they are settings of the venue, not state of its market).
 */
export class DialectProfiles {
  private readonly values = new Map<string, Map<string, string>>();

  constructor(
    private readonly readings: ReadonlyMap<string, Readings>,
    initial: Readonly<Record<string, Profile>> = {},
  ) {
    for (const [venue, set] of readings) {
      this.values.set(
        venue,
        new Map(Object.entries(set).map(([name, reading]) => [name, reading.default])),
      );
    }
    for (const [venue, profile] of Object.entries(initial)) {
      this.set(venue, profile);
    }
  }

  /** The typed view a dialect reads its readings through (live: it sees later switches). */
  of<R extends Readings>(venue: string, readings: R): DialectProfile<R> {
    const values = this.values.get(venue);
    if (!values || this.readings.get(venue) !== readings) {
      throw new InvalidProfileError(`no readings registered for ${venue}`);
    }
    return {
      get: <K extends keyof R & string>(name: K) => values.get(name) as ValueOf<R, K>,
    };
  }

  /** Every reading of a venue with its value now, its values, its default and its documented answer. */
  describe(venue: string): Record<string, Reading & { value: string }> {
    const set = this.readingsOf(venue);
    const values = this.values.get(venue)!;
    return Object.fromEntries(
      Object.entries(set).map(([name, reading]) => [
        name,
        { ...reading, value: values.get(name)! },
      ]),
    );
  }

  /** Sets some readings of a venue; all or nothing: an unknown reading or value changes none. */
  set(venue: string, profile: Readonly<Record<string, unknown>>): Profile {
    const set = this.readingsOf(venue);
    for (const [name, value] of Object.entries(profile)) {
      const reading = set[name];
      if (!reading) {
        throw new InvalidProfileError(
          `${venue} has no reading ${name} (readings: ${Object.keys(set).join(', ') || 'none'})`,
        );
      }
      if (typeof value !== 'string' || !reading.values.includes(value)) {
        throw new InvalidProfileError(
          `${venue}.${name} must be one of ${reading.values.join(', ')}`,
        );
      }
    }
    const values = this.values.get(venue)!;
    for (const [name, value] of Object.entries(profile)) {
      values.set(name, value as string);
    }
    return Object.fromEntries(values);
  }

  /** Every reading of every venue back to its default. */
  reset(): void {
    for (const [venue, set] of this.readings) {
      this.set(
        venue,
        Object.fromEntries(Object.entries(set).map(([name, reading]) => [name, reading.default])),
      );
    }
  }

  private readingsOf(venue: string): Readings {
    const set = this.readings.get(venue);
    if (!set) {
      throw new InvalidProfileError(`no dialect with readings: ${venue}`);
    }
    return set;
  }
}

/**
 * The profiles a venue's dialect is tested under: the default one, then, for
 * every reading, each value the default does not play (one reading changed
 * at a time, so a failure names the reading that broke the client).
 */
export function alternativeProfiles(readings: Readings): { name: string; profile: Profile }[] {
  const profiles: { name: string; profile: Profile }[] = [{ name: 'default', profile: {} }];
  for (const [name, reading] of Object.entries(readings)) {
    for (const value of reading.values) {
      if (value !== reading.default) {
        profiles.push({ name: `${name}=${value}`, profile: { [name]: value } });
      }
    }
  }
  return profiles;
}

/**
 * The profiles the live conformance suite runs under: `alternativeProfiles`
 * of the readings it can meet (not those that play on reduce-only orders
 * only, `Reading.only`, nor those of batches unless the client sends them).
 */
export function conformanceProfiles(
  readings: Readings,
  sendsBatches = false,
): { name: string; profile: Profile }[] {
  const met = (reading: Reading): boolean =>
    !reading.only || (reading.only === 'batch' && sendsBatches);
  return alternativeProfiles(
    Object.fromEntries(Object.entries(readings).filter(([, reading]) => met(reading))),
  );
}

/**
 * Few profiles that together play every value no default plays, each
 * changing every reading it can at once: the k-th sets each reading to its
 * k-th value other than the default. For the slow end-to-end runs, where one
 * run per value (`alternativeProfiles`) would cost too much.
 */
export function coveringProfiles(readings: Readings): Profile[] {
  const others = Object.entries(readings).map(
    ([name, reading]) =>
      [name, reading.values.filter((value) => value !== reading.default)] as const,
  );
  const count = Math.max(0, ...others.map(([, values]) => values.length));
  return Array.from({ length: count }, (_, k) =>
    Object.fromEntries(
      others.filter(([, values]) => k < values.length).map(([name, values]) => [name, values[k]]),
    ),
  );
}

/**
 * Reads `VENUE_SIM_DIALECT_PROFILE`'s form: comma-separated
 * `<venue>.<reading>=<value>`. Values are checked when the profiles are built.
 */
export function parseProfileSetting(text: string | undefined): Record<string, Profile> {
  const profiles: Record<string, Record<string, string>> = {};
  for (const part of (text ?? '').split(',').map((item) => item.trim())) {
    if (part === '') {
      continue;
    }
    const match = /^([a-z0-9_-]+)\.([a-z0-9_]+)=([a-z0-9_-]+)$/.exec(part);
    if (!match) {
      throw new InvalidProfileError(
        `bad dialect profile entry "${part}": <venue>.<reading>=<value>`,
      );
    }
    const [, venue, name, value] = match;
    profiles[venue] = { ...profiles[venue], [name]: value };
  }
  return profiles;
}
