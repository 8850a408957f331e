import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import { divide, matchClientOrderId, type Side } from '@sts/domain';
import { UnknownOrderError, type VenueClient, type VenueFill } from '@sts/venues';
import type { Liquidity } from '@sts/contracts';
import { feeOfFills, liquidityOfFills } from '../trade-runner/hedging/hedge-entries';
import { paidAtOnce } from '../venue-sessions/paid-requests';

/**
 * Cancels every open order of the trade on one account (a dead worker's
 * resting maker order). Returns how many it canceled.
 */
export async function cancelStrayOrders(
  client: VenueClient,
  bucket: TokenBucket | null,
  tradeId: string,
  symbol: string,
): Promise<number> {
  const open = await paidAtOnce(bucket, client, () => client.openOrders(symbol));
  let canceled = 0;
  for (const order of open) {
    if (!matchClientOrderId(order.clientOrderId, tradeId)) {
      continue;
    }
    try {
      const result = await paidAtOnce(bucket, client, () =>
        client.cancel({ clientOrderId: order.clientOrderId, symbol }),
      );
      if (result.outcome === 'canceled') {
        canceled += 1;
      }
    } catch (error) {
      if (!(error instanceof UnknownOrderError)) {
        throw error;
      }
    }
  }
  return canceled;
}

/**
 * The trade's own fills of one kind on one account since `sinceMs`, by client
 * order id, on the side that kind trades. Where a venue keeps only part of an
 * id (Lighter's index) the kind still tells the trade's unwind of its residual
 * from its maker orders (libs/venues `lighterClientOrderIndex`); the side,
 * the unwind's being the other, is a second guard for indices of releases
 * that gave an unwind a maker's.
 */
export async function tradeFills(
  client: VenueClient,
  bucket: TokenBucket | null,
  tradeId: string,
  of: { kind: 'maker' | 'hedge'; side: Side },
  sinceMs: number,
  symbol: string,
): Promise<VenueFill[]> {
  const fills = await paidAtOnce(bucket, client, () => client.fillsSince(sinceMs, symbol));
  return fills.filter(
    (fill) =>
      fill.side === of.side && matchClientOrderId(fill.clientOrderId, tradeId)?.kind === of.kind,
  );
}

/** Hedge fills grouped by venue order: one hedge_filled entry per order. */
export interface HedgeOrderFill {
  orderId: string;
  clientOrderId: string;
  size: Big;
  /** Size-weighted average. */
  price: Big;
  timestampMs: number;
  /** Null unless the venue reported a fee on every fill of the order. */
  fee: Big | null;
  liquidity: Liquidity;
}

export function hedgeOrdersOf(fills: readonly VenueFill[]): HedgeOrderFill[] {
  const byOrder = new Map<
    string,
    { clientOrderId: string; size: Big; value: Big; timestampMs: number; fills: VenueFill[] }
  >();
  for (const fill of fills) {
    const entry = byOrder.get(fill.orderId) ?? {
      clientOrderId: fill.clientOrderId,
      size: new Big(0),
      value: new Big(0),
      timestampMs: fill.timestampMs,
      fills: [],
    };
    entry.fills.push(fill);
    entry.size = entry.size.plus(fill.size);
    entry.value = entry.value.plus(new Big(fill.price).times(fill.size));
    entry.timestampMs = Math.max(entry.timestampMs, fill.timestampMs);
    byOrder.set(fill.orderId, entry);
  }
  return [...byOrder].map(([orderId, entry]) => ({
    orderId,
    clientOrderId: entry.clientOrderId,
    size: entry.size,
    price: divide(entry.value, entry.size).round(12),
    timestampMs: entry.timestampMs,
    fee: feeOfFills(entry.fills),
    liquidity: liquidityOfFills(entry.fills),
  }));
}
