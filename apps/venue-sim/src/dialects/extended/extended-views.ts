import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import { freeMargin, usedMargin } from '../../engine/order-validation';
import type { VenueEngine } from '../../engine/venue-engine';
import type { ExtendedAccount } from './extended-accounts';
import {
  COLLATERAL_ID,
  COLLATERAL_RESOLUTION,
  SYNTHETIC_RESOLUTION,
  syntheticIdOf,
} from './extended-settlement';
import { decimalsOf, hourlyFundingRate } from '../../api/wire-numbers';

/** Extended's JSON views of the engine: markets, the collateral asset, an account, its balances, positions and fees. */

export function marketInfo(market: MarketState, basisBps: number) {
  const { spec } = market;
  const mark = market.markPrice();
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const px = (ticks: number | undefined) =>
    ticks === undefined ? mark.toFixed() : market.price.format(ticks);
  return {
    name: spec.symbol,
    uiName: spec.symbol,
    category: 'Crypto',
    assetName: spec.baseAsset,
    assetPrecision: decimalsOf(spec.lotSize),
    collateralAssetName: 'USD',
    collateralAssetPrecision: 6,
    active: true,
    status: 'ACTIVE',
    marketStats: {
      dailyVolume: String(spec.volume24hUsd),
      lastPrice: mark.toFixed(),
      askPrice: px(ask?.priceTicks),
      bidPrice: px(bid?.priceTicks),
      markPrice: mark.toFixed(),
      indexPrice: mark
        .div(1 + basisBps / 10_000)
        .round(8)
        .toFixed(),
      fundingRate: hourlyFundingRate(basisBps).round(8).toFixed(),
      nextFundingRate: (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000,
      openInterest: String(spec.openInterestUsd),
    },
    tradingConfig: {
      minOrderSize: spec.minSize,
      minOrderSizeChange: spec.lotSize,
      minPriceChange: spec.tickSize,
      maxMarketOrderValue: '3000000',
      maxLimitOrderValue: '15000000',
      maxPositionValue: '60000000',
      maxLeverage: String(spec.maxLeverage),
      maxNumOrders: '200',
      limitPriceCap: '0.05',
      limitPriceFloor: '0.05',
    },
    l2Config: {
      type: 'STARKX',
      collateralId: COLLATERAL_ID,
      syntheticId: syntheticIdOf(spec.symbol),
      syntheticResolution: SYNTHETIC_RESOLUTION,
      collateralResolution: COLLATERAL_RESOLUTION,
    },
    visibleOnUi: true,
    createdAt: 0,
  };
}

export const collateralAsset = () => ({
  id: 1,
  name: 'USD',
  symbol: 'USD',
  description: 'USD Collateral',
  precision: 6,
  isActive: true,
  isCollateral: true,
  starkexId: COLLATERAL_ID,
  starkexResolution: COLLATERAL_RESOLUTION,
  version: 3,
  createdAt: 0,
  type: 'SPOT',
  canBeUsedAsCollateral: true,
});

export function walletBalance(venue: VenueEngine, wallet: string): Big {
  const account = venue.accounts.get(wallet);
  return account
    ? account.collateral.plus(account.realizedPnl).minus(account.feesPaid)
    : new Big(0);
}

export function balance(venue: VenueEngine, wallet: string) {
  const account = venue.account(wallet);
  const equity = account.equity(venue.marks());
  return {
    collateralName: 'USD',
    balance: walletBalance(venue, wallet).round(6).toFixed(),
    equity: equity.round(6).toFixed(),
    availableForTrade: freeMargin(venue, wallet).round(6).toFixed(),
    availableForWithdrawal: freeMargin(venue, wallet).round(6).toFixed(),
    unrealisedPnl: equity.minus(walletBalance(venue, wallet)).round(6).toFixed(),
    initialMargin: usedMargin(venue, wallet).round(6).toFixed(),
    marginRatio: '0',
    updatedTime: Date.now(),
  };
}

export function positions(venue: VenueEngine, account: ExtendedAccount) {
  const engine = venue.accounts.get(account.wallet);
  if (!engine) {
    return [];
  }
  const marks = venue.marks();
  return [...engine.positions].map(([symbol, position]) => {
    const mark = marks.get(symbol) ?? venue.market(symbol).markPrice();
    const size = position.size.abs();
    return {
      id: positionIdOf(venue, account, symbol),
      accountId: account.accountId,
      market: symbol,
      side: position.size.gt(0) ? 'LONG' : 'SHORT',
      leverage: String(venue.market(symbol).spec.maxLeverage),
      size: size.toFixed(),
      value: size.times(mark).round(6).toFixed(),
      openPrice: position.entryPrice.round(8).toFixed(),
      markPrice: mark.toFixed(),
      liquidationPrice: '0',
      margin: size.times(mark).div(venue.market(symbol).spec.maxLeverage).round(6).toFixed(),
      unrealisedPnl: engine.unrealizedPnl(symbol, mark).round(6).toFixed(),
      realisedPnl: '0',
      createdAt: 0,
      updatedAt: Date.now(),
    };
  });
}

/** The id of an account's position in a market: the account's id, then the market's place. */
export function positionIdOf(venue: VenueEngine, account: ExtendedAccount, symbol: string): number {
  return Number(
    `${account.accountId}${venue.profile.markets.findIndex((m) => m.symbol === symbol)}`,
  );
}

/** `user/account/info`: the account, its stark key and vault. */
export function accountInfo(account: ExtendedAccount) {
  return {
    accountId: account.accountId,
    description: 'Main account',
    accountIndex: 0,
    status: 'ACTIVE',
    l2Key: `0x${account.starkKey.toString(16)}`,
    l2Vault: String(account.vault),
    bridgeStarknetAddress: '0x0',
    apiKeys: [],
    accountIndexForKeyGeneration: 0,
  };
}

/**
 * `user/spot/balances`: the account's assets, each in its own units. The
 * collateral comes first, named USDC as the venue's answer names it (ccxt's
 * recorded example; its markets' `collateralAssetName` USD is ccxt's USDC
 * too), then what else the wallet holds (`holdings`: the venue's WETH and
 * WBTC, index-priced at the simulator's fair price, counted at a
 * contribution factor of 0.9). The engine margins from the collateral only.
 */
export function spotBalances(
  venue: VenueEngine,
  account: ExtendedAccount,
  holdings: ReadonlyMap<string, Big>,
  fairPriceOf: (asset: string) => Big | undefined,
) {
  const total = walletBalance(venue, account.wallet).round(6).toFixed();
  const updatedAt = Math.floor(Date.now() / 1000);
  const collateral = {
    accountId: account.accountId,
    asset: 'USDC',
    balance: total,
    indexPrice: '1',
    notionalValue: total,
    contributionFactor: '1',
    equityContribution: total,
    availableToWithdraw: freeMargin(venue, account.wallet).round(6).toFixed(),
    updatedAt,
  };
  const others = [...holdings].map(([asset, amount]) => {
    const price = fairPriceOf(asset) ?? new Big(0);
    const notional = amount.times(price);
    return {
      accountId: account.accountId,
      asset,
      balance: amount.toFixed(),
      indexPrice: price.round(6).toFixed(),
      notionalValue: notional.round(6).toFixed(),
      contributionFactor: HELD_CONTRIBUTION_FACTOR,
      equityContribution: notional.times(HELD_CONTRIBUTION_FACTOR).round(6).toFixed(),
      availableToWithdraw: amount.toFixed(),
      updatedAt,
    };
  });
  return [collateral, ...others];
}

/** The share of a held asset's value the venue counts as equity (ccxt's example: 0.95 for BTC). */
const HELD_CONTRIBUTION_FACTOR = '0.9';

/** `user/fees`: every market's maker and taker rates. */
export function fees(venue: VenueEngine) {
  return [...venue.markets.keys()].map((market) => ({
    market,
    makerFeeRate: new Big(venue.profile.makerFeeBps).div(10_000).toFixed(),
    takerFeeRate: new Big(venue.profile.takerFeeBps).div(10_000).toFixed(),
  }));
}

/** Levels a side of the REST order book (the venue documents no depth parameter; ccxt sends none). */
const ORDER_BOOK_LEVELS = 500;

/**
 * `GET /api/v1/info/markets/{market}/orderbook`: `{market, bid: [{qty,
 * price}], ask: [...]}`, best first (ccxt js/src/extended.js fetchOrderBook;
 * python_sdk x10/perpetual/orderbooks.py OrderbookUpdateModel).
 */
export function orderBook(market: MarketState) {
  const side = (levels: ReturnType<typeof market.book.bids.top>) =>
    levels.map((level) => ({
      qty: market.lot.format(level.totalLots),
      price: market.price.format(level.priceTicks),
    }));
  return {
    market: market.spec.symbol,
    bid: side(market.book.bids.top(ORDER_BOOK_LEVELS)),
    ask: side(market.book.asks.top(ORDER_BOOK_LEVELS)),
  };
}
