/** The worker benches' markets: the venues, symbols and outside takers both the bench and its driver use. */
export type Venue = 'hyperliquid' | 'paradex' | 'lighter' | 'aster' | 'extended';

export const MARKETS = ['BTC', 'ETH', 'SOL'] as const;
/** A small outside taker per market (about 200 USD, above every hedge venue's minimum). */
export const TAKER_SIZE: Record<string, string> = { BTC: '0.002', ETH: '0.06', SOL: '1.2' };

export const SYMBOL: Record<Venue, Record<string, string>> = {
  hyperliquid: { BTC: 'BTC', ETH: 'ETH', SOL: 'SOL' },
  paradex: { BTC: 'BTC-USD-PERP', ETH: 'ETH-USD-PERP', SOL: 'SOL-USD-PERP' },
  lighter: { BTC: 'BTC', ETH: 'ETH', SOL: 'SOL' },
  aster: { BTC: 'BTCUSDT', ETH: 'ETHUSDT', SOL: 'SOLUSDT' },
  extended: { BTC: 'BTC-USD', ETH: 'ETH-USD', SOL: 'SOL-USD' },
};
/** The side an outside taker takes to hit the makers resting on a venue. */
export const TAKER_SIDE: Record<Venue, 'buy' | 'sell'> = {
  hyperliquid: 'sell',
  paradex: 'buy',
  lighter: 'sell',
  aster: 'buy',
  extended: 'sell',
};
