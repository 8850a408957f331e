import type { RateLimitPool, RequestKind } from './rate-limits';

/** The five venues the service trades on (decisions section 1). */
export const VENUE_IDS = ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'] as const;
export type VenueId = (typeof VENUE_IDS)[number];

/** `_system` stands for system-wide maintenance in maintenance entries and events. */
export const SYSTEM_SCOPE = '_system';

/** The global kill switch, in maintenance events and halts (it travels as a maintenance scope). */
export const KILL_SWITCH_SCOPE = '_kill_switch';

export const isVenueId = (value: unknown): value is VenueId =>
  typeof value === 'string' && (VENUE_IDS as readonly string[]).includes(value);

export type VenueMode = 'paper' | 'live';

/** One venue's entry in the venue registry. */
export interface VenueConfig {
  id: VenueId;
  mode: VenueMode;
  /** Concurrent maker trades allowed per (wallet, cap group). */
  makerCap: number;
  /** Venues in one cap group share one maker-cap counter. */
  capGroup: string;
  /**
   * Account-level budget the service may spend on this venue, in tokens a
   * second (a token: one request on a paper venue; on a live venue, what a
   * placement costs, see `requestCosts`).
   */
  rateLimitPerS: number;
  /**
   * Live venues: tokens a second every account of the fleet's egress shares
   * on this venue (the venue's per-IP limits); null where it has none, and on
   * paper venues.
   */
  ipRateLimitPerS: number | null;
  /** Tokens each kind of request costs against the budget (all 1 on paper venues). */
  requestCosts: Readonly<Record<RequestKind, number>>;
  /** Live venues: the venue's published limits the budget is derived from (empty on paper). */
  rateLimits: readonly RateLimitPool[];
  /** The smallest per-trade share of the account limit a trade can run on. */
  minTradeBudget: number;
  /**
   * Live venues with per-IP limits: the smallest share of the per-IP limit,
   * in tokens a minute, a trade can run on (`min_ip_share_per_min`; by
   * default `minTradeBudget` a second). The per-IP term is divided a minute
   * at a time, as the venues count it, so a trade may hold less than one
   * token a second of it (Hyperliquid: 36 a minute, a re-quote every 3-4 s).
   */
  minIpSharePerMin: number;
  /** True when hedging on this venue draws on the same per-account limit. */
  sharedAccountLimit: boolean;
  /** How long a hedge may take to fill before the trade fails with the size unhedged. */
  hedgeTimeoutMs: number;
  /** Paper mode: base URL of the venue on the simulator. Live mode: unused (ccxt). */
  endpoint?: string;
}

export type VenueRegistry = Readonly<Record<VenueId, VenueConfig>>;
