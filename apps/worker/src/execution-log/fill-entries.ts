import type Big from 'big.js';
import { formatDecimal, type Side } from '@sts/domain';
import type { VenueFill } from '@sts/venues';
import { logEntry, type Liquidity, type LogEntry } from '@sts/contracts';

/**
 * The log's fill entries, each built in one place whichever path found the
 * fill: the maker account's stream, a read-back, or a takeover's
 * reconciliation with the venues.
 */

/** maker_fill of a venue fill; `feeAsset` is its market's quote asset (null when unknown). */
export function makerFillEntry(fill: VenueFill, feeAsset: string | null): LogEntry<'maker_fill'> {
  return logEntry('maker_fill', {
    exchange: fill.exchange,
    market: fill.market,
    side: fill.side,
    price: fill.price,
    size: fill.size,
    order_id: fill.orderId,
    client_order_id: fill.clientOrderId,
    fully_filled: fill.fullyFilled,
    timestamp_ms: fill.timestampMs,
    fill_id: fill.fillId,
    fee: fill.fee ?? null,
    fee_asset: fill.fee === undefined ? null : feeAsset,
    liquidity: fill.liquidity,
  });
}

/** What one hedge order filled, from its answer or from the venue's fills of it. */
export interface HedgeOrderFilled {
  exchange: string;
  side: Side;
  price: Big;
  size: Big;
  orderId: string;
  clientOrderId: string;
  timestampMs: number;
  /** The sum of the order's fill fees; null unless the venue reported one for every fill. */
  fee: Big | null;
  /** The hedge market's quote asset (null when unknown). */
  feeAsset: string | null;
  liquidity: Liquidity;
}

/** hedge_filled of one hedge order (one per venue order id). */
export function hedgeFilledEntry(filled: HedgeOrderFilled): LogEntry<'hedge_filled'> {
  return logEntry('hedge_filled', {
    exchange: filled.exchange,
    side: filled.side,
    price: formatDecimal(filled.price),
    size: formatDecimal(filled.size),
    order_id: filled.orderId,
    timestamp_ms: filled.timestampMs,
    client_order_id: filled.clientOrderId,
    fee: filled.fee ? formatDecimal(filled.fee) : null,
    fee_asset: filled.fee ? filled.feeAsset : null,
    liquidity: filled.liquidity,
  });
}
