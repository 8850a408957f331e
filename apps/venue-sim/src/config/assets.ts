/**
 * The underlying assets. Every venue's market on an asset prices off one fair
 * price per asset (shared by all venues) plus its own basis, so cross-venue
 * spreads come from the bases alone.
 */
export interface AssetSpec {
  asset: string;
  /** Fair price of one base unit at start, in USD. */
  initialPrice: number;
  /** Annualised volatility of the fair price. */
  annualVol: number;
}

export const ASSETS: readonly AssetSpec[] = [
  { asset: 'BTC', initialPrice: 97_000, annualVol: 0.55 },
  { asset: 'ETH', initialPrice: 3_400, annualVol: 0.7 },
  { asset: 'SOL', initialPrice: 180, annualVol: 0.9 },
  { asset: 'PEPE', initialPrice: 0.0000105, annualVol: 1.1 },
  { asset: 'HYPE', initialPrice: 24, annualVol: 1.0 },
];
