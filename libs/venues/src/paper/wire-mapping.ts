import Big from 'big.js';
import type { VenueBalance, VenueFundingPayment, VenuePosition } from '../model/account';
import { canonicalSymbol, type MarketEntry, type VenueMarket } from '../model/market';
import type { VenueFill, VenueOrder } from '../model/orders';
import type {
  WireBalance,
  WireFill,
  WireFundingPayment,
  WireMarket,
  WireOrder,
  WirePosition,
} from './protocol';

/** Funding per interval to a yearly rate: rate x intervals per day x 365. */
export function annualiseFunding(rate: string, intervalHours: number): string {
  return new Big(rate).times(24).div(intervalHours).times(365).round(8).toFixed();
}

export function toVenueMarket(wire: WireMarket): VenueMarket {
  const entry: MarketEntry = {
    symbol: wire.symbol,
    tick_size: wire.tick_size,
    lot_size: wire.lot_size,
    min_size: wire.min_size,
  };
  if (wire.min_notional !== undefined) {
    entry.min_notional = wire.min_notional;
  }
  if (wire.max_leverage !== undefined) {
    entry.max_leverage = wire.max_leverage;
  }
  if (wire.isolated_only !== undefined) {
    entry.isolated_only = wire.isolated_only;
  }
  if (wire.funding_interval_hours !== undefined) {
    entry.funding_interval_hours = wire.funding_interval_hours;
  }
  if (wire.funding_rate !== undefined) {
    entry.live_funding_rate = wire.funding_rate;
    if (wire.funding_interval_hours) {
      entry.live_funding_annualised = annualiseFunding(
        wire.funding_rate,
        wire.funding_interval_hours,
      );
    }
  }
  if (wire.volume_24h_usd !== undefined) {
    entry.volume_24h_usd = wire.volume_24h_usd;
  }
  if (wire.open_interest_usd !== undefined) {
    entry.open_interest_usd = wire.open_interest_usd;
  }
  return {
    canonical: canonicalSymbol(wire.base_asset, wire.contract_multiplier),
    contractMultiplier: wire.contract_multiplier,
    quote: wire.quote,
    marginAsset: wire.margin_asset,
    entry,
  };
}

export function toVenueOrder(exchange: string, market: string, wire: WireOrder): VenueOrder {
  const order: VenueOrder = {
    exchange,
    symbol: wire.symbol,
    market,
    orderId: wire.order_id,
    clientOrderId: wire.client_order_id,
    side: wire.side,
    type: wire.type,
    price: wire.price,
    size: wire.size,
    filledSize: wire.filled_size,
    status: wire.status,
    createdAtMs: wire.created_at_ms,
    updatedAtMs: wire.updated_at_ms,
  };
  if (wire.avg_price !== undefined) {
    order.averagePrice = wire.avg_price;
  }
  return order;
}

export function toVenueFill(exchange: string, market: string, wire: WireFill): VenueFill {
  return {
    exchange,
    symbol: wire.symbol,
    market,
    side: wire.side,
    price: wire.price,
    size: wire.size,
    orderId: wire.order_id,
    clientOrderId: wire.client_order_id,
    fullyFilled: wire.order_fully_filled,
    timestampMs: wire.ts_ms,
    fillId: wire.fill_id,
    liquidity: wire.liquidity,
    fee: wire.fee,
  };
}

export function toVenuePosition(
  exchange: string,
  market: string,
  wire: WirePosition,
): VenuePosition {
  return {
    exchange,
    symbol: wire.symbol,
    market,
    side: wire.side,
    size: wire.size,
    entryPrice: wire.entry_price,
    markPrice: wire.mark_price,
    unrealizedPnl: wire.unrealized_pnl,
    leverage: wire.leverage,
    marginMode: wire.margin_mode,
  };
}

export function toVenueFunding(
  exchange: string,
  market: string,
  wire: WireFundingPayment,
): VenueFundingPayment {
  return {
    exchange,
    symbol: wire.symbol,
    market,
    timeMs: wire.ts_ms,
    amount: wire.amount,
    asset: wire.asset,
    rate: wire.rate,
    size: wire.size,
  };
}

export function toVenueBalance(wire: WireBalance): VenueBalance {
  return {
    asset: wire.asset,
    total: wire.total,
    available: wire.available,
    marginUsed: wire.margin_used,
  };
}
