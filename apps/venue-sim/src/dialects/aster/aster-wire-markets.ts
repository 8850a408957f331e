import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import { decimalsOf, hourlyFundingRate } from '../../api/wire-numbers';

/** Aster's public market data as its endpoints answer it: exchange info, funding, tickers, depth and update ids. */

/** The margin assets of the venue's markets (USDT, USD1). */
export function marginAssets(venue: VenueEngine): string[] {
  return [...new Set(venue.profile.markets.map((spec) => spec.quote))];
}

/**
 * `GET /fapi/v3/exchangeInfo`: one PERPETUAL per engine market, filters from
 * its profile; `rateLimits` the limits in force (the venue's live answer is
 * the truth about them, AST L200).
 */
export function exchangeInfo(venue: VenueEngine, nowMs: number, rateLimits: unknown[]) {
  return {
    timezone: 'UTC',
    serverTime: nowMs,
    rateLimits,
    exchangeFilters: [],
    assets: marginAssets(venue).map((asset) => ({
      asset,
      marginAvailable: true,
      autoAssetExchange: '0',
    })),
    symbols: [...venue.markets.values()].map((market) => symbolInfo(market)),
  };
}

function symbolInfo(market: MarketState) {
  const { spec } = market;
  return {
    symbol: spec.symbol,
    pair: spec.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4133404800000,
    onboardDate: 1569398400000,
    status: 'TRADING',
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: spec.baseAsset,
    quoteAsset: spec.quote,
    marginAsset: spec.quote,
    pricePrecision: decimalsOf(spec.tickSize),
    quantityPrecision: decimalsOf(spec.lotSize),
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: [],
    settlePlan: 0,
    triggerProtect: '0.0500',
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: spec.tickSize,
        maxPrice: '10000000',
        tickSize: spec.tickSize,
      },
      { filterType: 'LOT_SIZE', minQty: spec.minSize, maxQty: '100000000', stepSize: spec.lotSize },
      {
        filterType: 'MARKET_LOT_SIZE',
        minQty: spec.minSize,
        maxQty: '100000000',
        stepSize: spec.lotSize,
      },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 10 },
      { filterType: 'MIN_NOTIONAL', notional: spec.minNotional ?? '0' },
      {
        filterType: 'PERCENT_PRICE',
        multiplierUp: '1.0500',
        multiplierDown: '0.9500',
        multiplierDecimal: 4,
      },
    ],
    orderTypes: [
      'LIMIT',
      'MARKET',
      'STOP',
      'STOP_MARKET',
      'TAKE_PROFIT',
      'TAKE_PROFIT_MARKET',
      'TRAILING_STOP_MARKET',
    ],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'HIDDEN'],
    liquidationFee: '0.015000',
    marketTakeBound: '0.05',
  };
}

/** Funding follows the premium, as the paper protocol's markets say (wire-format.ts). */
export function fundingRate(market: MarketState, basisBps: number): string {
  const perHour = hourlyFundingRate(basisBps);
  return perHour.times(market.spec.fundingIntervalHours).round(8).toFixed(8);
}

/** The next funding time: the next whole multiple of the market's interval (UTC). */
export function nextFundingTime(market: MarketState, nowMs: number): number {
  const intervalMs = market.spec.fundingIntervalHours * 3_600_000;
  return Math.floor(nowMs / intervalMs) * intervalMs + intervalMs;
}

/** One entry of `GET /fapi/v3/premiumIndex`. */
export function premiumIndex(market: MarketState, basisBps: number, nowMs: number) {
  const mark = market.markPrice();
  // The index is the fair price the venue's basis is measured from.
  const index = mark.div(1 + basisBps / 10_000).round(8);
  return {
    symbol: market.spec.symbol,
    markPrice: mark.toFixed(),
    indexPrice: index.toFixed(),
    estimatedSettlePrice: index.toFixed(),
    lastFundingRate: fundingRate(market, basisBps),
    interestRate: '0.00010000',
    nextFundingTime: nextFundingTime(market, nowMs),
    time: nowMs,
  };
}

/** One entry of `GET /fapi/v3/fundingInfo`. */
export function fundingInfo(market: MarketState, nowMs: number) {
  return {
    symbol: market.spec.symbol,
    interestRate: '0.00010000',
    time: nowMs,
    fundingIntervalHours: market.spec.fundingIntervalHours,
    fundingFeeCap: 0.03,
    fundingFeeFloor: -0.03,
  };
}

/**
 * One entry of `GET /fapi/v3/ticker/24hr`. The simulator keeps no trade
 * history: prices are the mark's, volume the market's published 24 h volume.
 */
export function ticker24hr(market: MarketState, nowMs: number) {
  const mark = market.markPrice().toFixed();
  return {
    symbol: market.spec.symbol,
    priceChange: '0',
    priceChangePercent: '0',
    weightedAvgPrice: mark,
    lastPrice: mark,
    lastQty: '0',
    openPrice: mark,
    highPrice: mark,
    lowPrice: mark,
    volume: new Big(market.volume24hUsd).div(market.markPrice()).round(3).toFixed(),
    quoteVolume: String(market.volume24hUsd),
    openTime: nowMs - 86_400_000,
    closeTime: nowMs,
    firstId: 0,
    lastId: 0,
    count: 0,
  };
}

/** `GET /fapi/v3/leverageBracket`: one bracket at the market's maximum leverage. */
export function leverageBracket(market: MarketState) {
  const { maxLeverage } = market.spec;
  return {
    symbol: market.spec.symbol,
    brackets: [
      {
        bracket: 1,
        initialLeverage: maxLeverage,
        notionalCap: 1_000_000_000,
        notionalFloor: 0,
        // Half the initial margin: the simulator has no maintenance margin of its own.
        maintMarginRatio: Number((0.5 / maxLeverage).toFixed(6)),
        cum: 0,
      },
    ],
  };
}

/** `GET /fapi/v3/depth`: the top `limit` levels and the update id of the last change. */
export function depthSnapshot(market: MarketState, limit: number, nowMs: number) {
  return {
    lastUpdateId: snapshotUpdateId(market.book.seq),
    E: nowMs,
    T: nowMs,
    bids: levels(market, 'bids', limit),
    asks: levels(market, 'asks', limit),
  };
}

export function levels(market: MarketState, side: 'bids' | 'asks', limit: number): string[][] {
  return market.book[side]
    .top(limit)
    .map((level) => [market.price.format(level.priceTicks), market.lot.format(level.totalLots)]);
}

/**
 * Book update ids. The engine numbers its book changes 1, 2, 3…; change `n`
 * is streamed as the update range [2n−1, 2n] (`pu` = 2n−2), and a snapshot
 * taken after change `n` has `lastUpdateId` 2n+1: inside the next change's
 * range, as Aster's futures books expect ("the first processed event should
 * have U <= lastUpdateId AND u >= lastUpdateId"; earlier events have
 * u < lastUpdateId and are dropped).
 */
export const updateRange = (seq: number): { U: number; u: number; pu: number } => ({
  U: 2 * seq - 1,
  u: 2 * seq,
  pu: 2 * seq - 2,
});

export const snapshotUpdateId = (seq: number): number => 2 * seq + 1;
