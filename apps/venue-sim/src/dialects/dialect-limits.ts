import { ASTER_RATE_LIMITS } from './aster/aster-rate-limits';
import { EXTENDED_RATE_LIMITS } from './extended/extended-rate-limits';
import { HL_RATE_LIMITS } from './hyperliquid/hl-rate-limits';
import { LIGHTER_RATE_LIMITS } from './lighter/lighter-rate-limits';
import { PARADEX_RATE_LIMITS } from './paradex/paradex-rate-limits';
import { PublishedLimits, type LimitAdjustment, type PublishedTable } from './published-limits';

/** Every dialect's published limits, by venue id. */
export const DIALECT_RATE_LIMITS: ReadonlyMap<string, PublishedTable> = new Map(
  [
    HL_RATE_LIMITS,
    ASTER_RATE_LIMITS,
    PARADEX_RATE_LIMITS,
    EXTENDED_RATE_LIMITS,
    LIGHTER_RATE_LIMITS,
  ].map((table) => [table.venue, table]),
);

/** No published limits for a venue (it has no dialect). */
export class UnknownDialectLimits extends Error {
  constructor(venue: string) {
    super(`no dialect limits for ${venue}`);
    this.name = 'UnknownDialectLimits';
  }
}

/**
 * The published limits of every dialect: one PublishedLimits per venue,
 * which its dialect admits requests through and /control reads, adjusts and
 * clears. An adjustment survives a world reset (a setting, like a profile);
 * the counts do not.
 */
export class DialectLimits {
  private readonly byVenue = new Map<string, PublishedLimits>();

  constructor(
    tables: ReadonlyMap<string, PublishedTable>,
    adjustments: Readonly<Record<string, LimitAdjustment>> = {},
  ) {
    for (const [venue, table] of tables) {
      this.byVenue.set(venue, new PublishedLimits(table));
    }
    for (const [venue, adjustment] of Object.entries(adjustments)) {
      this.of(venue).adjust(adjustment);
    }
  }

  of(venue: string): PublishedLimits {
    const limits = this.byVenue.get(venue);
    if (!limits) {
      throw new UnknownDialectLimits(venue);
    }
    return limits;
  }

  clearCounts(): void {
    for (const limits of this.byVenue.values()) {
      limits.clearCounts();
    }
  }
}
