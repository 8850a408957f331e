import Big from 'big.js';
import type { FundingRate, MarketInterface, Ticker } from 'ccxt';
import { canonicalSymbol, type MarketEntry, type VenueMarket } from '../model/market';
import { annualiseFunding } from '../paper/wire-mapping';
import { decimal, required } from './ccxt-decimal';

/** ccxt's precision modes (ccxt.DECIMAL_PLACES, ccxt.TICK_SIZE). */
const DECIMAL_PLACES = 2;

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
