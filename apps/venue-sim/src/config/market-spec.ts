/** What the simulator knows about one market of one venue. */
export interface MarketSpec {
  /** Venue-native symbol. */
  symbol: string;
  /** Priced off this asset's fair price. */
  asset: string;
  /** The venue's spelling of the base (`kPEPE`, `1000PEPE`, `PEPE`). */
  baseAsset: string;
  quote: string;
  /** The asset the venue margins this market in, where it is not the venue's `marginAsset` (Aster's USD1 markets). */
  marginAsset?: string;
  /** Extra multiplier the venue states separately from the base spelling. */
  contractMultiplier: string;
  /** Base units of `asset` per contract unit (1000 for every PEPE contract here). */
  priceMultiplier: number;
  tickSize: string;
  lotSize: string;
  minSize: string;
  minNotional?: string;
  maxLeverage: number;
  isolatedOnly?: boolean;
  fundingIntervalHours: number;
  /** Mean of this market's basis to the fair price, in bps. */
  basisMeanBps: number;
  /** Half the house quote spread around the venue mid, in bps (at least one tick). */
  halfSpreadBps: number;
  /** Distance between house ladder levels, in bps (at least one tick). */
  levelStepBps: number;
  /** House size per level near the touch, in USD. */
  levelNotionalUsd: number;
  volume24hUsd: number;
  openInterestUsd: number;
}

/** Optional market fields a venue does not publish; they are omitted on the wire. */
export type OptionalMarketField =
  'min_notional' | 'isolated_only' | 'open_interest_usd' | 'max_leverage';

export interface VenueProfile {
  id: string;
  /** Requests per second per account before HTTP 429. */
  rateLimitPerS: number;
  makerFeeBps: number;
  takerFeeBps: number;
  /** Stationary spread of each market's basis, in bps. */
  basisStdBps: number;
  /** Taker orders per market per tick (Poisson mean) and their mean size in USD. */
  takersPerTick: number;
  takerNotionalUsd: number;
  /** Book levels per side quoted by the house. */
  levels: number;
  omits: readonly OptionalMarketField[];
  /**
   * The asset an account's collateral is kept in, as the paper protocol
   * names it: every market's margin unless it names its own.
   */
  marginAsset: string;
  /**
   * What a funded wallet holds on the venue besides its margin, in each
   * asset's own units, as the venue lists it beside the margin asset in its
   * balance answers. The engine margins from the collateral only: these
   * amounts are in other units, and a client that added them to the margin
   * would be wrong by as much (a test adds more with a deposit naming the
   * asset).
   */
  heldAssets: Readonly<Record<string, string>>;
  markets: readonly MarketSpec[];
}

/** The asset a market of the venue is margined in. */
export const marginAssetOf = (profile: VenueProfile, spec: MarketSpec): string =>
  spec.marginAsset ?? profile.marginAsset;
