import Big from 'big.js';
import type {
  Balances,
  FundingRate,
  MarketInterface,
  Order,
  OrderBook,
  Position,
  Ticker,
  Trade,
} from 'ccxt';
import type { VenueBalance, VenuePosition } from '../model/account';
import type { BookUpdate } from '../model/book';
import { canonicalSymbol, type MarketEntry, type VenueMarket } from '../model/market';
import type { OrderStatus, VenueFill, VenueOrder } from '../model/orders';
import { annualiseFunding } from '../paper/wire-mapping';

/** ccxt's precision modes (ccxt.DECIMAL_PLACES, ccxt.TICK_SIZE). */
const DECIMAL_PLACES = 2;

/**
 * A ccxt number as an exact decimal string. ccxt parses venue strings into
 * JS numbers; `String(n)` gives back the shortest text of that number, which
 * big.js reads exactly, so no float arithmetic happens on the way.
 */
export function decimal(value: number | string | undefined | null): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return new Big(String(value)).toFixed();
}

const required = (value: number | string | undefined, what: string): string => {
  const text = decimal(value);
  if (text === undefined) throw new Error(`ccxt payload lacks ${what}`);
  return text;
};

const text = (value: string | undefined, what: string): string => {
  if (value === undefined || value === '') throw new Error(`ccxt payload lacks ${what}`);
  return value;
};

/** The venue's own name of a market: hyperliquid's coin name, the exchange id elsewhere. */
export function nativeSymbol(market: MarketInterface): string {
  const info = market.info as { name?: unknown } | undefined;
  if (/^\d+$/.test(market.id ?? '') && typeof info?.name === 'string') return info.name;
  return market.id ?? market.symbol;
}

export interface MarketExtras {
  funding?: FundingRate;
  ticker?: Ticker;
}

/** Linear perpetuals that trade; everything else (spot, dated, inverse, delisted) is left out. */
export function isTradablePerp(market: MarketInterface | undefined): market is MarketInterface {
  return !!market && market.swap === true && market.linear !== false && market.active !== false;
}

export function toMarket(
  market: MarketInterface,
  extras: MarketExtras,
  precisionMode?: number,
): VenueMarket {
  const step = (value: number | undefined, what: string): string =>
    precisionMode === DECIMAL_PLACES
      ? new Big(10).pow(-Number(value)).toFixed()
      : required(value, what);
  const lot = step(market.precision.amount, 'precision.amount');
  const entry: MarketEntry = {
    symbol: nativeSymbol(market),
    tick_size: step(market.precision.price, 'precision.price'),
    lot_size: lot,
    min_size: decimal(market.limits.amount?.min) ?? lot,
  };
  const minNotional = decimal(market.limits.cost?.min);
  if (minNotional !== undefined) entry.min_notional = minNotional;
  const maxLeverage = market.limits.leverage?.max;
  if (maxLeverage !== undefined && maxLeverage !== null)
    entry.max_leverage = Math.floor(maxLeverage);
  const isolatedOnly = isolatedOnlyOf(market);
  if (isolatedOnly !== undefined) entry.isolated_only = isolatedOnly;
  addFunding(entry, extras.funding);
  const volume = extras.ticker?.quoteVolume;
  if (volume !== undefined && volume !== null)
    entry.volume_24h_usd = new Big(String(volume)).round(0).toFixed();
  const openInterest = openInterestUsd(market, extras.ticker);
  if (openInterest !== undefined) entry.open_interest_usd = openInterest;
  const base = (market as MarketInterface & { baseName?: string }).baseName ?? market.base;
  return {
    canonical: canonicalSymbol(base, decimal(market.contractSize) ?? '1'),
    contractMultiplier: decimal(market.contractSize) ?? '1',
    quote: market.quote,
    entry,
  };
}

function isolatedOnlyOf(market: MarketInterface): boolean | undefined {
  const info = market.info as { onlyIsolated?: unknown } | undefined;
  if (typeof info?.onlyIsolated === 'boolean') return info.onlyIsolated;
  if (
    market.marginModes &&
    market.marginModes.cross === false &&
    market.marginModes.isolated === true
  )
    return true;
  if (market.marginModes && market.marginModes.cross === true) return false;
  return undefined;
}

function addFunding(entry: MarketEntry, funding: FundingRate | undefined): void {
  if (!funding) return;
  const hours = /^(\d+)h$/.exec(funding.interval ?? '')?.[1];
  if (hours) entry.funding_interval_hours = Number(hours);
  const rate = decimal(funding.fundingRate);
  if (rate === undefined) return;
  entry.live_funding_rate = rate;
  if (hours) entry.live_funding_annualised = annualiseFunding(rate, Number(hours));
}

function openInterestUsd(market: MarketInterface, ticker: Ticker | undefined): string | undefined {
  // Hyperliquid publishes open interest in coins alongside the mark price.
  const info = market.info as { openInterest?: unknown; markPx?: unknown } | undefined;
  const coins = typeof info?.openInterest === 'string' ? info.openInterest : undefined;
  const mark =
    typeof info?.markPx === 'string' ? info.markPx : decimal(ticker?.markPrice ?? undefined);
  if (coins === undefined || mark === undefined) return undefined;
  return new Big(coins).times(mark).round(0).toFixed();
}

function statusOf(order: Order): OrderStatus {
  const filled = new Big(String(order.filled ?? 0));
  const status = order.status ?? undefined;
  if (status === 'closed') return 'filled';
  if (status === 'rejected') return 'rejected';
  if (status === 'canceled' || status === 'expired') return 'canceled';
  // 'open', or no status at all (some venues answer a placement without one).
  if (status === undefined && order.amount !== undefined && filled.gte(String(order.amount)))
    return 'filled';
  return filled.gt(0) ? 'partially_filled' : 'open';
}

export function toOrder(
  order: Order,
  exchange: string,
  symbol: string,
  market: string,
  clientOrderId?: string,
): VenueOrder {
  const ioc = (order.timeInForce ?? '').toUpperCase() === 'IOC' || order.type === 'market';
  const mapped: VenueOrder = {
    exchange,
    symbol,
    market,
    orderId: text(order.id, 'order id'),
    clientOrderId: clientOrderId ?? order.clientOrderId ?? '',
    side: order.side === 'sell' ? 'sell' : 'buy',
    type: order.postOnly || !ioc ? 'post_only' : 'ioc',
    price: required(order.price, 'order price'),
    size: required(order.amount, 'order amount'),
    filledSize: decimal(order.filled) ?? '0',
    status: statusOf(order),
    createdAtMs: order.timestamp ?? Date.now(),
    updatedAtMs:
      order.lastUpdateTimestamp ?? order.lastTradeTimestamp ?? order.timestamp ?? Date.now(),
  };
  const average = decimal(order.average);
  if (average !== undefined && new Big(mapped.filledSize).gt(0)) mapped.averagePrice = average;
  return mapped;
}

export interface FillContext {
  exchange: string;
  symbol: string;
  market: string;
  clientOrderId: string;
  fullyFilled: boolean;
}

export function toFill(trade: Trade, context: FillContext): VenueFill {
  const fill: VenueFill = {
    exchange: context.exchange,
    symbol: context.symbol,
    market: context.market,
    side: trade.side === 'sell' ? 'sell' : 'buy',
    price: required(trade.price, 'trade price'),
    size: required(trade.amount, 'trade amount'),
    orderId: trade.order ?? '',
    clientOrderId: context.clientOrderId,
    fullyFilled: context.fullyFilled,
    timestampMs: trade.timestamp ?? Date.now(),
    fillId: text(trade.id, 'trade id'),
    liquidity: trade.takerOrMaker === 'maker' ? 'maker' : 'taker',
  };
  const fee = decimal(trade.fee?.cost);
  if (fee !== undefined) fill.fee = fee;
  return fill;
}

export function toBook(
  book: OrderBook,
  exchange: string,
  symbol: string,
  market: string,
  depth: number,
  seq: number,
): BookUpdate {
  const levels = (side: OrderBook['bids']) =>
    side.slice(0, depth).map(([price, size]) => ({
      price: required(price, 'book price'),
      size: required(size, 'book size'),
    }));
  const bids = levels(book.bids);
  const asks = levels(book.asks);
  return {
    exchange,
    symbol,
    market,
    seq: book.nonce ?? seq,
    bestBid: bids[0]?.price ?? null,
    bestAsk: asks[0]?.price ?? null,
    bids,
    asks,
    timestampMs: book.timestamp ?? Date.now(),
  };
}

export function toPosition(
  position: Position,
  exchange: string,
  symbol: string,
  market: string,
): VenuePosition | undefined {
  const size = decimal(position.contracts);
  if (size === undefined || new Big(size).eq(0)) return undefined;
  const mapped: VenuePosition = {
    exchange,
    symbol,
    market,
    side: position.side === 'short' ? 'short' : 'long',
    size: new Big(size).abs().toFixed(),
    entryPrice: required(position.entryPrice, 'position entry price'),
  };
  const mark = decimal(position.markPrice);
  if (mark !== undefined) mapped.markPrice = mark;
  const pnl = decimal(position.unrealizedPnl);
  if (pnl !== undefined) mapped.unrealizedPnl = pnl;
  if (position.leverage !== undefined && position.leverage !== null)
    mapped.leverage = position.leverage;
  if (position.marginMode === 'cross' || position.marginMode === 'isolated')
    mapped.marginMode = position.marginMode;
  return mapped;
}

export function toBalances(balances: Balances): VenueBalance[] {
  const result: VenueBalance[] = [];
  const skip = new Set(['info', 'timestamp', 'datetime', 'free', 'used', 'total', 'debt']);
  for (const [asset, balance] of Object.entries(balances)) {
    if (skip.has(asset) || !balance || typeof balance !== 'object') continue;
    const total = decimal(balance.total);
    if (total === undefined) continue;
    const entry: VenueBalance = { asset, total, available: decimal(balance.free) ?? total };
    const used = decimal(balance.used);
    if (used !== undefined) entry.marginUsed = used;
    result.push(entry);
  }
  return result;
}
