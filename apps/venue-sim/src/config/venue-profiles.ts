import type { MarketSpec, VenueProfile } from './market-spec';

type MarketInput = Omit<
  MarketSpec,
  'contractMultiplier' | 'priceMultiplier' | 'halfSpreadBps' | 'levelStepBps'
> &
  Partial<
    Pick<MarketSpec, 'contractMultiplier' | 'priceMultiplier' | 'halfSpreadBps' | 'levelStepBps'>
  >;

const market = (input: MarketInput): MarketSpec => ({
  contractMultiplier: '1',
  priceMultiplier: 1,
  halfSpreadBps: 0.8,
  levelStepBps: 0.6,
  ...input,
});

/**
 * The default venues, shaped like the real ones: symbols, tick and lot sizes,
 * minimums, leverage and funding intervals differ per venue, and each venue
 * publishes a different subset of the optional market fields. HYPE is listed
 * on three venues only, and twice on aster (USDT and USD1 margined), which
 * makes it ambiguous there (decisions section 1).
 */
/** One market per line reads as a table. */
// prettier-ignore
export const VENUE_PROFILES: readonly VenueProfile[] = [
  {
    id: 'hyperliquid',
    rateLimitPerS: 20,
    makerFeeBps: 1.5,
    takerFeeBps: 4.5,
    basisStdBps: 3,
    takersPerTick: 0.35,
    takerNotionalUsd: 25_000,
    levels: 20,
    omits: [],
    marginAsset: 'USDC',
    heldAssets: { HYPE: '12.5', PURR: '1500' },
    markets: [
      market({ symbol: 'BTC', asset: 'BTC', baseAsset: 'BTC', quote: 'USDC', tickSize: '1', lotSize: '0.00001', minSize: '0.00001', minNotional: '10', maxLeverage: 40, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: 0.5, levelNotionalUsd: 180_000, volume24hUsd: 2_900_000_000, openInterestUsd: 2_100_000_000 }),
      market({ symbol: 'ETH', asset: 'ETH', baseAsset: 'ETH', quote: 'USDC', tickSize: '0.1', lotSize: '0.0001', minSize: '0.0001', minNotional: '10', maxLeverage: 25, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: 1, levelNotionalUsd: 90_000, volume24hUsd: 1_400_000_000, openInterestUsd: 1_050_000_000 }),
      market({ symbol: 'SOL', asset: 'SOL', baseAsset: 'SOL', quote: 'USDC', tickSize: '0.01', lotSize: '0.01', minSize: '0.01', minNotional: '10', maxLeverage: 20, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: -1, levelNotionalUsd: 45_000, volume24hUsd: 410_000_000, openInterestUsd: 380_000_000 }),
      market({ symbol: 'kPEPE', asset: 'PEPE', baseAsset: 'kPEPE', quote: 'USDC', priceMultiplier: 1000, tickSize: '0.000001', lotSize: '1', minSize: '1', minNotional: '10', maxLeverage: 10, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: 2, halfSpreadBps: 2, levelStepBps: 2, levelNotionalUsd: 12_000, volume24hUsd: 38_000_000, openInterestUsd: 26_000_000 }),
      market({ symbol: 'HYPE', asset: 'HYPE', baseAsset: 'HYPE', quote: 'USDC', tickSize: '0.001', lotSize: '0.01', minSize: '0.01', minNotional: '10', maxLeverage: 10, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: -0.5, levelNotionalUsd: 40_000, volume24hUsd: 520_000_000, openInterestUsd: 610_000_000 }),
    ],
  },
  {
    id: 'lighter',
    rateLimitPerS: 40,
    makerFeeBps: 0,
    takerFeeBps: 0,
    basisStdBps: 4,
    takersPerTick: 0.3,
    takerNotionalUsd: 15_000,
    levels: 20,
    omits: ['isolated_only'],
    marginAsset: 'USDC',
    heldAssets: { ETH: '3' },
    markets: [
      market({ symbol: 'BTC', asset: 'BTC', baseAsset: 'BTC', quote: 'USDC', tickSize: '0.1', lotSize: '0.00001', minSize: '0.0002', minNotional: '10', maxLeverage: 50, fundingIntervalHours: 1, basisMeanBps: -1.5, levelNotionalUsd: 120_000, volume24hUsd: 1_300_000_000, openInterestUsd: 640_000_000 }),
      market({ symbol: 'ETH', asset: 'ETH', baseAsset: 'ETH', quote: 'USDC', tickSize: '0.01', lotSize: '0.0001', minSize: '0.005', minNotional: '10', maxLeverage: 50, fundingIntervalHours: 1, basisMeanBps: -2, levelNotionalUsd: 70_000, volume24hUsd: 720_000_000, openInterestUsd: 410_000_000 }),
      market({ symbol: 'SOL', asset: 'SOL', baseAsset: 'SOL', quote: 'USDC', tickSize: '0.001', lotSize: '0.001', minSize: '0.05', minNotional: '10', maxLeverage: 25, fundingIntervalHours: 1, basisMeanBps: 0.5, levelNotionalUsd: 30_000, volume24hUsd: 190_000_000, openInterestUsd: 120_000_000 }),
      market({ symbol: '1000PEPE', asset: 'PEPE', baseAsset: '1000PEPE', quote: 'USDC', priceMultiplier: 1000, tickSize: '0.000001', lotSize: '1', minSize: '500', minNotional: '10', maxLeverage: 10, fundingIntervalHours: 1, basisMeanBps: 1, halfSpreadBps: 2.5, levelStepBps: 2, levelNotionalUsd: 8_000, volume24hUsd: 14_000_000, openInterestUsd: 9_000_000 }),
      market({ symbol: 'HYPE', asset: 'HYPE', baseAsset: 'HYPE', quote: 'USDC', tickSize: '0.0001', lotSize: '0.01', minSize: '0.5', minNotional: '10', maxLeverage: 10, fundingIntervalHours: 1, basisMeanBps: 1.5, levelNotionalUsd: 25_000, volume24hUsd: 160_000_000, openInterestUsd: 95_000_000 }),
    ],
  },
  {
    id: 'paradex',
    rateLimitPerS: 30,
    makerFeeBps: 0,
    takerFeeBps: 2,
    basisStdBps: 5,
    takersPerTick: 0.25,
    takerNotionalUsd: 12_000,
    levels: 20,
    omits: ['isolated_only'],
    marginAsset: 'USDC',
    heldAssets: { ETH: '0.75' },
    markets: [
      market({ symbol: 'BTC-USD-PERP', asset: 'BTC', baseAsset: 'BTC', quote: 'USD', tickSize: '0.1', lotSize: '0.00001', minSize: '0.0001', minNotional: '100', maxLeverage: 50, fundingIntervalHours: 8, basisMeanBps: 2, halfSpreadBps: 1, levelNotionalUsd: 90_000, volume24hUsd: 610_000_000, openInterestUsd: 330_000_000 }),
      market({ symbol: 'ETH-USD-PERP', asset: 'ETH', baseAsset: 'ETH', quote: 'USD', tickSize: '0.01', lotSize: '0.0001', minSize: '0.001', minNotional: '100', maxLeverage: 50, fundingIntervalHours: 8, basisMeanBps: 1.5, halfSpreadBps: 1, levelNotionalUsd: 60_000, volume24hUsd: 320_000_000, openInterestUsd: 190_000_000 }),
      market({ symbol: 'SOL-USD-PERP', asset: 'SOL', baseAsset: 'SOL', quote: 'USD', tickSize: '0.001', lotSize: '0.01', minSize: '0.1', minNotional: '100', maxLeverage: 20, fundingIntervalHours: 8, basisMeanBps: -2, halfSpreadBps: 1.2, levelNotionalUsd: 25_000, volume24hUsd: 95_000_000, openInterestUsd: 61_000_000 }),
      market({ symbol: 'kPEPE-USD-PERP', asset: 'PEPE', baseAsset: 'kPEPE', quote: 'USD', priceMultiplier: 1000, tickSize: '0.0000001', lotSize: '10', minSize: '1000', minNotional: '100', maxLeverage: 10, fundingIntervalHours: 8, basisMeanBps: -3, halfSpreadBps: 3, levelStepBps: 2.5, levelNotionalUsd: 6_000, volume24hUsd: 7_500_000, openInterestUsd: 4_200_000 }),
    ],
  },
  {
    id: 'extended',
    rateLimitPerS: 16,
    makerFeeBps: 0,
    takerFeeBps: 2.5,
    basisStdBps: 4,
    takersPerTick: 0.2,
    takerNotionalUsd: 10_000,
    levels: 20,
    omits: ['min_notional', 'open_interest_usd'],
    marginAsset: 'USD',
    heldAssets: { WETH: '2.5', WBTC: '0.12' },
    markets: [
      market({ symbol: 'BTC-USD', asset: 'BTC', baseAsset: 'BTC', quote: 'USD', tickSize: '1', lotSize: '0.0001', minSize: '0.0001', maxLeverage: 50, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: -0.5, halfSpreadBps: 1, levelNotionalUsd: 70_000, volume24hUsd: 450_000_000, openInterestUsd: 0 }),
      market({ symbol: 'ETH-USD', asset: 'ETH', baseAsset: 'ETH', quote: 'USD', tickSize: '0.1', lotSize: '0.001', minSize: '0.01', maxLeverage: 50, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: -1, halfSpreadBps: 1, levelNotionalUsd: 45_000, volume24hUsd: 210_000_000, openInterestUsd: 0 }),
      market({ symbol: 'SOL-USD', asset: 'SOL', baseAsset: 'SOL', quote: 'USD', tickSize: '0.01', lotSize: '0.01', minSize: '0.1', maxLeverage: 50, isolatedOnly: false, fundingIntervalHours: 1, basisMeanBps: 1, halfSpreadBps: 1.2, levelNotionalUsd: 20_000, volume24hUsd: 60_000_000, openInterestUsd: 0 }),
      market({ symbol: '1000PEPE-USD', asset: 'PEPE', baseAsset: 'PEPE', contractMultiplier: '1000', quote: 'USD', priceMultiplier: 1000, tickSize: '0.000001', lotSize: '100', minSize: '1000', maxLeverage: 20, isolatedOnly: true, fundingIntervalHours: 1, basisMeanBps: 0, halfSpreadBps: 3, levelStepBps: 2.5, levelNotionalUsd: 5_000, volume24hUsd: 3_100_000, openInterestUsd: 0 }),
    ],
  },
  {
    id: 'aster',
    rateLimitPerS: 20,
    makerFeeBps: 1,
    takerFeeBps: 3.5,
    basisStdBps: 6,
    takersPerTick: 0.3,
    takerNotionalUsd: 18_000,
    levels: 20,
    omits: ['isolated_only'],
    marginAsset: 'USDT',
    heldAssets: { BNB: '1.25', ASTER: '2500' },
    markets: [
      market({ symbol: 'BTCUSDT', asset: 'BTC', baseAsset: 'BTC', quote: 'USDT', tickSize: '0.1', lotSize: '0.001', minSize: '0.001', minNotional: '5', maxLeverage: 125, fundingIntervalHours: 8, basisMeanBps: 3, levelNotionalUsd: 110_000, volume24hUsd: 1_800_000_000, openInterestUsd: 520_000_000 }),
      market({ symbol: 'ETHUSDT', asset: 'ETH', baseAsset: 'ETH', quote: 'USDT', tickSize: '0.01', lotSize: '0.001', minSize: '0.001', minNotional: '5', maxLeverage: 100, fundingIntervalHours: 8, basisMeanBps: 2.5, levelNotionalUsd: 65_000, volume24hUsd: 900_000_000, openInterestUsd: 300_000_000 }),
      market({ symbol: 'SOLUSDT', asset: 'SOL', baseAsset: 'SOL', quote: 'USDT', tickSize: '0.01', lotSize: '0.01', minSize: '0.01', minNotional: '5', maxLeverage: 75, fundingIntervalHours: 8, basisMeanBps: 2, levelNotionalUsd: 30_000, volume24hUsd: 240_000_000, openInterestUsd: 110_000_000 }),
      market({ symbol: '1000PEPEUSDT', asset: 'PEPE', baseAsset: '1000PEPE', quote: 'USDT', priceMultiplier: 1000, tickSize: '0.0000001', lotSize: '1', minSize: '1', minNotional: '5', maxLeverage: 50, fundingIntervalHours: 4, basisMeanBps: 4, halfSpreadBps: 2, levelStepBps: 2, levelNotionalUsd: 9_000, volume24hUsd: 21_000_000, openInterestUsd: 11_000_000 }),
      market({ symbol: 'HYPEUSDT', asset: 'HYPE', baseAsset: 'HYPE', quote: 'USDT', tickSize: '0.001', lotSize: '0.01', minSize: '0.01', minNotional: '5', maxLeverage: 20, fundingIntervalHours: 8, basisMeanBps: 3, levelNotionalUsd: 20_000, volume24hUsd: 88_000_000, openInterestUsd: 41_000_000 }),
      market({ symbol: 'HYPEUSD1', asset: 'HYPE', baseAsset: 'HYPE', quote: 'USD1', marginAsset: 'USD1', tickSize: '0.001', lotSize: '0.01', minSize: '0.01', minNotional: '5', maxLeverage: 10, fundingIntervalHours: 8, basisMeanBps: 6, halfSpreadBps: 3, levelStepBps: 2, levelNotionalUsd: 5_000, volume24hUsd: 4_000_000, openInterestUsd: 1_900_000 }),
    ],
  },
];
