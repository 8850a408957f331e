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

export interface VenueBalance {
  asset: string;
  total: string;
  available: string;
  /** Margin held by positions and open orders, when the venue reports it. */
  marginUsed?: string;
}
