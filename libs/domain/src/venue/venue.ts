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
  /** Account-level requests per second the service may spend on this venue. */
  rateLimitPerS: number;
  /** The smallest per-trade share of the account limit a trade can run on. */
  minTradeBudget: number;
  /** True when hedging on this venue draws on the same per-account limit. */
  sharedAccountLimit: boolean;
  /** How long a hedge may take to fill before the trade fails with the size unhedged. */
  hedgeTimeoutMs: number;
  /** Paper mode: base URL of the venue on the simulator. Live mode: unused (ccxt). */
  endpoint?: string;
}

export type VenueRegistry = Readonly<Record<VenueId, VenueConfig>>;
