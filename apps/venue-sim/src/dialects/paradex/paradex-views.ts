import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import { hourlyFundingRate } from '../../api/wire-numbers';

/** Paradex's JSON views of the engine: markets and their summaries, books, balance, positions. */

/** One market as `GET /v1/markets` lists it (a perpetual, settled in USDC). */
export function marketInfo(market: MarketState) {
  const { spec } = market;
  return {
    symbol: spec.symbol,
    base_currency: spec.baseAsset,
    quote_currency: spec.quote,
    settlement_currency: 'USDC',
    order_size_increment: spec.lotSize,
    price_tick_size: spec.tickSize,
    min_notional: spec.minNotional ?? '0',
    open_at: 0,
    expiry_at: 0,
    asset_kind: 'PERP',
    market_kind: 'cross',
    position_limit: '1000000000',
    price_bands_width: '0.05',
    max_open_orders: 100,
    max_funding_rate: '0.05',
    delta1_cross_margin_params: {
      imf_base: new Big(1).div(spec.maxLeverage).round(6).toFixed(),
      imf_shift: '0',
      imf_factor: '0',
      mmf_factor: '0.5',
    },
    price_feed_id: spec.asset,
    oracle_ewma_factor: '0.2',
    max_order_size: '1000000000',
    max_funding_rate_change: '0.0005',
    max_tob_spread: '0.2',
    interest_rate: '0',
    clamp_rate: '0.05',
    funding_period_hours: spec.fundingIntervalHours,
    tags: [],
  };
}

/** `GET /v1/orderbook/{market}`: the top levels of each side. */
export function orderBook(market: MarketState) {
  const side = (book: typeof market.book.bids) =>
    book
      .top(20)
      .map((level) => [market.price.format(level.priceTicks), market.lot.format(level.totalLots)]);
  return {
    market: market.spec.symbol,
    seq_no: market.book.seq,
    last_updated_at: Date.now(),
    bids: side(market.book.bids),
    asks: side(market.book.asks),
  };
}

/**
 * `GET /v1/balance`: the account's tokens, each in its own units. USDC, the
 * settlement token, margins every market; the others are what the wallet
 * holds beside it (`holdings`: spot assets, which carry the documented
 * `average_entry_price` and `cost`, here at the simulator's fair price).
 */
export function balances(
  venue: VenueEngine,
  accountId: string,
  holdings: ReadonlyMap<string, Big>,
  priceOf: (asset: string) => Big | undefined,
) {
  const account = venue.accounts.get(accountId);
  const size = account
    ? account.collateral.plus(account.realizedPnl).minus(account.feesPaid)
    : new Big(0);
  const now = Date.now();
  const held = [...holdings].map(([token, amount]) => {
    const price = priceOf(token) ?? new Big(0);
    return {
      token,
      size: amount.toFixed(),
      average_entry_price: price.round(2).toFixed(),
      average_entry_price_usd: price.round(2).toFixed(),
      cost: amount.times(price).round(4).toFixed(),
      cost_usd: amount.times(price).round(4).toFixed(),
      last_updated_at: now,
    };
  });
  return [{ token: 'USDC', size: size.round(8).toFixed(), last_updated_at: now }, ...held];
}

/** `GET /v1/positions`: every open position (cross margin). */
export function positions(venue: VenueEngine, accountId: string) {
  const account = venue.accounts.get(accountId);
  if (!account) {
    return [];
  }
  const marks = venue.marks();
  return [...account.positions].map(([symbol, position]) => {
    const mark = marks.get(symbol) ?? venue.market(symbol).markPrice();
    const size = position.size.abs();
    return {
      id: `${accountId}-${symbol}`,
      account: accountId,
      market: symbol,
      status: 'OPEN',
      side: position.size.gt(0) ? 'LONG' : 'SHORT',
      size: size.toFixed(),
      average_entry_price: position.entryPrice.round(8).toFixed(),
      average_entry_price_usd: position.entryPrice.round(8).toFixed(),
      cost: size.times(position.entryPrice).round(8).toFixed(),
      cost_usd: size.times(position.entryPrice).round(8).toFixed(),
      unrealized_pnl: account.unrealizedPnl(symbol, mark).round(8).toFixed(),
      unrealized_funding_pnl: '0',
      realized_positional_pnl: '0',
      liquidation_price: '',
      leverage: '',
      last_updated_at: Date.now(),
      created_at: Date.now(),
    };
  });
}

/** One market as `GET /v1/markets/summary` gives it. */
export function marketSummary(market: MarketState, basisBps: number) {
  const mark = market.markPrice();
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const price = (ticks: number | undefined) =>
    ticks === undefined ? mark.toFixed() : market.price.toBig(ticks).toFixed();
  return {
    symbol: market.spec.symbol,
    mark_price: mark.toFixed(),
    last_traded_price: mark.toFixed(),
    bid: price(bid?.priceTicks),
    ask: price(ask?.priceTicks),
    volume_24h: String(market.spec.volume24hUsd),
    total_volume: String(market.spec.volume24hUsd),
    created_at: Date.now(),
    underlying_price: mark
      .div(1 + basisBps / 10_000)
      .round(8)
      .toFixed(),
    open_interest: new Big(market.spec.openInterestUsd).div(mark).round(4).toFixed(),
    funding_rate: hourlyFundingRate(basisBps)
      .times(market.spec.fundingIntervalHours)
      .round(8)
      .toFixed(),
    price_change_rate_24h: '0',
  };
}
