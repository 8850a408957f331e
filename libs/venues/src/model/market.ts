import Big from 'big.js';

/**
 * One venue's entry for a market, exactly the per-exchange entry of the
 * public Market resource (interface.md): the gateway passes it through as is.
 * Optional fields are absent, never null, when the venue does not supply them.
 */
export interface MarketEntry {
  /** Venue-native symbol (what orders are placed on). */
  symbol: string;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional?: string;
  max_leverage?: number;
  isolated_only?: boolean;
  funding_interval_hours?: number;
  live_funding_rate?: string;
  live_funding_annualised?: string;
  volume_24h_usd?: string;
  open_interest_usd?: string;
}

/** A venue's market with what the client needs beyond the public entry. */
export interface VenueMarket {
  /** Canonical symbol (decisions section 1): `BTC`, `1000PEPE`. */
  canonical: string;
  /** Base units one contract unit stands for (`1000` for kPEPE / 1000PEPE). */
  contractMultiplier: string;
  /** Quote asset, e.g. `USD`, `USDC`, `USDT`: what prices are in. */
  quote: string;
  /**
   * The asset the venue margins and settles the market in, as the client's
   * balances name it (ccxt's `settle`; the simulator's `margin_asset`):
   * Paradex quotes BTC-USD-PERP in USD and margins it in USDC. The margin
   * the market can use is this asset's balance only (`marginBalanceOf`).
   */
  marginAsset: string;
  entry: MarketEntry;
}

/**
 * Canonical symbol of a contract: the upper-case base asset, prefixed with the
 * contract's size multiplier when it is not 1 (`PEPE` x1000 -> `1000PEPE`).
 * Venue spellings of a multiplier (`kPEPE`, `1000PEPE`) are read by
 * `splitMultiplier` first, so both map to the same canonical symbol.
 */
export function canonicalSymbol(baseAsset: string, multiplier: string = '1'): string {
  const split = splitMultiplier(baseAsset);
  const total = new Big(split.multiplier).times(multiplier);
  const base = split.base.toUpperCase();
  return total.eq(1) ? base : `${total.toFixed()}${base}`;
}

/** `kPEPE` -> (PEPE, 1000); `1000PEPE` -> (PEPE, 1000); `BTC` -> (BTC, 1). */
export function splitMultiplier(asset: string): { base: string; multiplier: string } {
  const kilo = /^k([A-Z0-9]{2,})$/.exec(asset);
  if (kilo) {
    return { base: kilo[1], multiplier: '1000' };
  }
  const numeric = /^(1[0]{2,})([A-Za-z][A-Za-z0-9]*)$/.exec(asset);
  if (numeric) {
    return { base: numeric[2], multiplier: numeric[1] };
  }
  return { base: asset, multiplier: '1' };
}
