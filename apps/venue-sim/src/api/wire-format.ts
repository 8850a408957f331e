import type {
  WireBalance,
  WireFill,
  WireFundingPayment,
  WireLevel,
  WireMarket,
  WireOrder,
  WirePosition,
} from '@sts/venues';
import { marginAssetOf } from '../config/market-spec';
import type { FundingPayment } from '../engine/funding-book';
import type { MarketState } from '../engine/market-state';
import type { LevelChange, PriceLevel } from '../engine/order-book';
import { freeMargin, usedMargin } from '../engine/order-validation';
import type { EngineFill, EngineOrder } from '../engine/types';
import type { VenueEngine } from '../engine/venue-engine';
import { hourlyFundingRate } from './wire-numbers';

/** Engine records (ticks, lots, Big) to the paper protocol's decimal strings. */
export function wireOrder(venue: VenueEngine, order: EngineOrder): WireOrder {
  const market = venue.market(order.symbol);
  const wire: WireOrder = {
    order_id: order.orderId,
    client_order_id: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    price: market.price.format(order.priceTicks),
    size: market.lot.format(order.sizeLots),
    filled_size: market.lot.format(order.filledLots),
    status: order.status,
    created_at_ms: order.createdAtMs,
    updated_at_ms: order.updatedAtMs,
  };
  if (order.filledLots > 0) {
    wire.avg_price = order.filledValue.div(market.lot.toBig(order.filledLots)).round(12).toFixed();
  }
  return wire;
}

export function wireFill(venue: VenueEngine, fill: EngineFill): WireFill {
  const market = venue.market(fill.symbol);
  return {
    fill_id: fill.fillId,
    order_id: fill.orderId,
    client_order_id: fill.clientOrderId,
    symbol: fill.symbol,
    side: fill.side,
    price: market.price.format(fill.priceTicks),
    size: market.lot.format(fill.lots),
    liquidity: fill.liquidity,
    fee: fill.fee.toFixed(),
    order_fully_filled: fill.orderFullyFilled,
    ts_ms: fill.tsMs,
  };
}

export function wireFunding(payment: FundingPayment): WireFundingPayment {
  return {
    id: payment.id,
    symbol: payment.symbol,
    ts_ms: payment.timeMs,
    rate: payment.rate.toFixed(),
    size: payment.size.toFixed(),
    mark_price: payment.markPrice.toFixed(),
    amount: payment.amount.toFixed(),
    asset: payment.asset,
  };
}

export function wireLevels(market: MarketState, changes: LevelChange[]): WireLevel[] {
  return changes.map(([ticks, lots]) => [market.price.format(ticks), market.lot.format(lots)]);
}

export function wireBookLevels(market: MarketState, levels: PriceLevel[]): WireLevel[] {
  return levels.map((level) => [
    market.price.format(level.priceTicks),
    market.lot.format(level.totalLots),
  ]);
}

/**
 * Market metadata as the venue publishes it. A venue that does not publish a
 * field (its profile's `omits`) leaves it out, as the real one would.
 */
export function wireMarket(venue: VenueEngine, market: MarketState, basisBps: number): WireMarket {
  const { spec } = market;
  const omits = new Set(venue.profile.omits);
  // Funding follows the premium: a base interest per hour plus a share of the basis.
  const perHour = hourlyFundingRate(basisBps);
  const wire: WireMarket = {
    symbol: spec.symbol,
    base_asset: spec.baseAsset,
    quote: spec.quote,
    margin_asset: marginAssetOf(venue.profile, spec),
    contract_multiplier: spec.contractMultiplier,
    tick_size: spec.tickSize,
    lot_size: spec.lotSize,
    min_size: spec.minSize,
    funding_interval_hours: spec.fundingIntervalHours,
    funding_rate: perHour.times(spec.fundingIntervalHours).round(8).toFixed(),
    volume_24h_usd: String(market.volume24hUsd),
    mark_price: market.markPrice().toFixed(),
  };
  if (spec.minNotional && !omits.has('min_notional')) {
    wire.min_notional = spec.minNotional;
  }
  if (!omits.has('max_leverage')) {
    wire.max_leverage = spec.maxLeverage;
  }
  if (spec.isolatedOnly !== undefined && !omits.has('isolated_only')) {
    wire.isolated_only = spec.isolatedOnly;
  }
  if (!omits.has('open_interest_usd')) {
    wire.open_interest_usd = String(market.openInterestUsd);
  }
  return wire;
}

export function wirePositions(venue: VenueEngine, accountId: string): WirePosition[] {
  const account = venue.account(accountId);
  return [...account.positions].map(([symbol, position]) => {
    const market = venue.market(symbol);
    const mark = market.markPrice();
    return {
      symbol,
      side: position.size.gt(0) ? 'long' : 'short',
      size: position.size.abs().toFixed(),
      entry_price: position.entryPrice.round(12).toFixed(),
      mark_price: mark.toFixed(),
      unrealized_pnl: account.unrealizedPnl(symbol, mark).round(8).toFixed(),
      leverage: market.spec.maxLeverage,
      margin_mode: market.spec.isolatedOnly ? 'isolated' : 'cross',
    };
  });
}

/** The paper protocol's balances: the one collateral, in the venue's margin asset. */
export function wireBalances(venue: VenueEngine, accountId: string): WireBalance[] {
  const total = venue.account(accountId).equity(venue.marks());
  return [
    {
      asset: venue.profile.marginAsset,
      total: total.round(8).toFixed(),
      available: freeMargin(venue, accountId).round(8).toFixed(),
      margin_used: usedMargin(venue, accountId).round(8).toFixed(),
    },
  ];
}
