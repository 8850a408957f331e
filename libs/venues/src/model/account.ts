export interface VenuePosition {
  exchange: string;
  symbol: string;
  market: string;
  side: 'long' | 'short';
  /** Absolute size in contract units. */
  size: string;
  entryPrice: string;
  markPrice?: string;
  unrealizedPnl?: string;
  leverage?: number;
  marginMode?: 'cross' | 'isolated';
}

/** One funding settlement of the account's position in one market, as the venue recorded it. */
export interface VenueFundingPayment {
  exchange: string;
  /** The venue's symbol. */
  symbol: string;
  /** The canonical market. */
  market: string;
  /** When the venue settled it (epoch ms). */
  timeMs: number;
  /** Signed decimal: positive received, negative paid. */
  amount: string;
  /** The asset it was paid in (the market's margin asset). */
  asset: string;
  /** The interval's rate (positive: longs pay), when the venue says. */
  rate?: string;
  /** The account's signed position it was paid on (positive long), when the venue says. */
  size?: string;
}

export interface VenueBalance {
  asset: string;
  total: string;
  available: string;
  /** Margin held by positions and open orders, when the venue reports it. */
  marginUsed?: string;
}

/**
 * The balance a market can margin from: the entry of its margin asset
 * (`VenueMarket.marginAsset`), or undefined when the account holds none.
 * Venues list every asset they hold for the account (Aster 32, Extended
 * USDC, WETH and WBTC), each in its own units: their amounts never add up.
 */
export function marginBalanceOf(
  balances: readonly VenueBalance[],
  marginAsset: string,
): VenueBalance | undefined {
  return balances.find((balance) => balance.asset === marginAsset);
}
