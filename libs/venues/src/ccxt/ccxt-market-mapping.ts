import Big from 'big.js';
import type { FundingRate, MarketInterface, Ticker } from 'ccxt';
import { canonicalSymbol, type MarketEntry, type VenueMarket } from '../model/market';
import { annualiseFunding } from '../paper/wire-mapping';
import { decimal, required } from './ccxt-decimal';

/** ccxt's precision modes (ccxt.DECIMAL_PLACES, ccxt.TICK_SIZE). */
const DECIMAL_PLACES = 2;

/**
 * The venue's own name of a market: the exchange id, or where that is a
 * number, the name the venue lists it by (Hyperliquid's coin `name`,
 * Lighter's `symbol`).
 */
export function nativeSymbol(market: MarketInterface): string {
  const info = market.info as { name?: unknown; symbol?: unknown } | undefined;
  if (/^\d+$/.test(market.id ?? '')) {
    if (typeof info?.name === 'string') {
      return info.name;
    }
    if (typeof info?.symbol === 'string') {
      return info.symbol;
    }
  }
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
  venue?: string,
): VenueMarket {
  const step = (value: number | undefined, what: string): string =>
    precisionMode === DECIMAL_PLACES
      ? new Big(10).pow(-Number(value)).toFixed()
      : required(value, what);
  const lot = step(market.precision.amount, 'precision.amount');
  const entry: MarketEntry = {
    symbol: nativeSymbol(market),
    tick_size:
      (venue === 'hyperliquid' ? significantFiguresTick(market, lot) : undefined) ??
      step(market.precision.price, 'precision.price'),
    lot_size: lot,
    min_size: decimal(market.limits.amount?.min) ?? lot,
  };
  const minNotional = decimal(market.limits.cost?.min);
  if (minNotional !== undefined) {
    entry.min_notional = minNotional;
  }
  const maxLeverage = market.limits.leverage?.max;
  if (maxLeverage !== undefined && maxLeverage !== null) {
    entry.max_leverage = Math.floor(maxLeverage);
  }
  const isolatedOnly = isolatedOnlyOf(market);
  if (isolatedOnly !== undefined) {
    entry.isolated_only = isolatedOnly;
  }
  addFunding(entry, extras.funding);
  const volume = extras.ticker?.quoteVolume;
  if (volume !== undefined && volume !== null) {
    entry.volume_24h_usd = new Big(String(volume)).round(0).toFixed();
  }
  const openInterest = openInterestUsd(market, extras.ticker);
  if (openInterest !== undefined) {
    entry.open_interest_usd = openInterest;
  }
  const base = (market as MarketInterface & { baseName?: string }).baseName ?? market.base;
  return {
    canonical: canonicalSymbol(base, decimal(market.contractSize) ?? '1'),
    contractMultiplier: decimal(market.contractSize) ?? '1',
    quote: market.quote,
    marginAsset: market.settle ?? market.quote,
    entry,
  };
}

/** Hyperliquid's perp prices: at most 5 significant figures (integers always allowed). */
const HYPERLIQUID_SIGNIFICANT_FIGURES = 5;
/** ... and at most 6 - szDecimals decimals. */
const HYPERLIQUID_PERP_MAX_DECIMALS = 6;

/**
 * The price step Hyperliquid accepts at the market's current mark: it has no
 * fixed tick, but a price may carry at most 5 significant figures and at most
 * 6 - szDecimals decimals (ccxt's `precision.price` gives only the latter, so
 * a quote one ccxt tick inside the spread would be rounded by ccxt, possibly
 * through the touch). Undefined without a mark price. The step changes when
 * the price crosses a power of ten; the mapping is refreshed with the markets.
 */
export function significantFiguresTick(market: MarketInterface, lot: string): string | undefined {
  const info = market.info as { markPx?: unknown } | undefined;
  const mark = typeof info?.markPx === 'string' ? new Big(info.markPx) : undefined;
  if (!mark || mark.lte(0)) {
    return undefined;
  }
  const szDecimals = Math.max(0, -new Big(lot).e);
  // Position of the first significant digit: 1e3 -> 3, 0.0123 -> -2.
  const exponent = mark.e;
  const bySignificance = HYPERLIQUID_SIGNIFICANT_FIGURES - 1 - exponent;
  const decimals = Math.min(
    HYPERLIQUID_PERP_MAX_DECIMALS - szDecimals,
    Math.max(0, bySignificance),
  );
  return new Big(10).pow(-decimals).toFixed();
}

function isolatedOnlyOf(market: MarketInterface): boolean | undefined {
  const info = market.info as { onlyIsolated?: unknown } | undefined;
  if (typeof info?.onlyIsolated === 'boolean') {
    return info.onlyIsolated;
  }
  if (
    market.marginModes &&
    market.marginModes.cross === false &&
    market.marginModes.isolated === true
  ) {
    return true;
  }
  if (market.marginModes && market.marginModes.cross === true) {
    return false;
  }
  return undefined;
}

function addFunding(entry: MarketEntry, funding: FundingRate | undefined): void {
  if (!funding) {
    return;
  }
  const hours = /^(\d+)h$/.exec(funding.interval ?? '')?.[1];
  if (hours) {
    entry.funding_interval_hours = Number(hours);
  }
  const rate = decimal(funding.fundingRate);
  if (rate === undefined) {
    return;
  }
  entry.live_funding_rate = rate;
  if (hours) {
    entry.live_funding_annualised = annualiseFunding(rate, Number(hours));
  }
}

function openInterestUsd(market: MarketInterface, ticker: Ticker | undefined): string | undefined {
  // Hyperliquid publishes open interest in coins alongside the mark price.
  const info = market.info as { openInterest?: unknown; markPx?: unknown } | undefined;
  const coins = typeof info?.openInterest === 'string' ? info.openInterest : undefined;
  const mark =
    typeof info?.markPx === 'string' ? info.markPx : decimal(ticker?.markPrice ?? undefined);
  if (coins === undefined || mark === undefined) {
    return undefined;
  }
  return new Big(coins).times(mark).round(0).toFixed();
}
