export interface BookLevel {
  price: string;
  size: string;
}

/**
 * The top of one market's book after an update: best prices and the first
 * levels of depth, with the venue's sequence number of the update applied.
 */
export interface BookUpdate {
  exchange: string;
  symbol: string;
  market: string;
  seq: number;
  bestBid: string | null;
  bestAsk: string | null;
  /** Best first. */
  bids: BookLevel[];
  /** Best first. */
  asks: BookLevel[];
  timestampMs: number;
}
