import Big from 'big.js';
import {
  averageFillPrice,
  formatDecimal,
  slippageBps,
  spreadAchieved,
  type GuardFillClass,
  type PricedFill,
} from '@sts/domain';
import type { OrderAck, PlaceOrderRequest, VenueFill, VenueOrder } from '@sts/venues';
import { logEntry, type HedgeResult, type Liquidity, type LogEntry } from '@sts/contracts';
import { hedgeFilledEntry } from '../../execution-log/fill-entries';
import type { HedgeContext } from './hedge-context';

/** hedge_sent of one attempt, built once its IOC is out (the arrival mid is read after the send). */
export function hedgeSentEntry(
  context: HedgeContext,
  request: PlaceOrderRequest,
  attempt: number,
  cause: string,
  /** How far past hedge_timeout_ms the hedge runs for an attempt lost before the venue (0: not). */
  deadlineExtendedMs = 0,
): LogEntry {
  const arrivalMid = context.market.freshHedgeMid();
  return logEntry('hedge_sent', {
    exchange: context.venue.leg.venue,
    side: context.venue.side,
    size: request.size,
    price: request.price,
    client_order_id: request.clientOrderId,
    attempt,
    cause,
    ...(deadlineExtendedMs > 0 ? { deadline_extended_ms: deadlineExtendedMs } : {}),
    arrival_mid: arrivalMid === null ? null : formatDecimal(arrivalMid),
  });
}

/** What an IOC filled: its size and price (the venue's average, else its fills', else its limit). */
export function iocFill(order: VenueOrder, ack?: OrderAck): PricedFill {
  const size = new Big(order.filledSize);
  const fromFills = averageFillPrice(
    (ack?.fills ?? []).map((fill) => ({ price: new Big(fill.price), size: new Big(fill.size) })),
  );
  const price = order.averagePrice
    ? new Big(order.averagePrice)
    : (fromFills ?? new Big(order.price));
  return { price, size };
}

/**
 * The fee of an order's fills: their sum when the venue reported a fee on
 * every one of them, else null (a fee is never guessed).
 */
export function feeOfFills(fills: readonly Pick<VenueFill, 'fee'>[]): Big | null {
  let total = new Big(0);
  for (const fill of fills) {
    if (fill.fee === undefined) {
      return null;
    }
    total = total.plus(fill.fee);
  }
  return fills.length > 0 ? total : null;
}

/** An IOC never rests, so it takes: `maker` only when the venue said so of every fill. */
export const liquidityOfFills = (fills: readonly Pick<VenueFill, 'liquidity'>[]): Liquidity =>
  fills.length > 0 && fills.every((fill) => fill.liquidity === 'maker') ? 'maker' : 'taker';

/**
 * hedge_filled of an IOC that filled `fill`, with the fee of the fills its ack
 * carried (null without them: an order found by a look-up carries none).
 */
export function iocFilledEntry(
  context: HedgeContext,
  order: VenueOrder,
  fill: PricedFill,
  ack?: OrderAck,
): LogEntry {
  const fills = (ack?.fills ?? []).filter((one) => one.orderId === order.orderId);
  // Fills that do not add up to what the order filled would understate its fee.
  const complete = fills.reduce((sum, one) => sum.plus(one.size), new Big(0)).eq(fill.size);
  return hedgeFilledEntry({
    exchange: context.venue.leg.venue,
    side: context.venue.side,
    price: fill.price,
    size: fill.size,
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    timestampMs: order.updatedAtMs,
    fee: complete ? feeOfFills(fills) : null,
    feeAsset: context.venue.leg.quote ?? null,
    liquidity: liquidityOfFills(fills),
  });
}

/** What a hedge came to, as hedge_outcome reports it. */
export interface HedgeSummary {
  result: HedgeResult;
  cause: string;
  requested: Big;
  filled: Big;
  attempts: number;
  /** The IOCs' fills. */
  fills: readonly PricedFill[];
  /** The maker fills the hedge covers. */
  makerFills: readonly PricedFill[];
  /** H when the hedge started: slippage is measured against it (null: none came, nothing sent). */
  reference: Big | null;
  guardFillClass: GuardFillClass | null;
  /**
   * Set when an attempt's fate was unknown past the timeout (or every record
   * of it missed) and was settled from the venue's fills of it: with the
   * hedge account's position the venue reported then.
   */
  fromFills?: { position: string | null } | null;
}

/** hedge_outcome, with slippage and the spread achieved against the maker fills it covers. */
export function hedgeOutcomeEntry(context: HedgeContext, summary: HedgeSummary): LogEntry {
  const average = averageFillPrice(summary.fills);
  const makerPrice = averageFillPrice(summary.makerFills);
  const { venue } = context;
  return logEntry('hedge_outcome', {
    result: summary.result,
    exchange: venue.leg.venue,
    side: venue.side,
    requested_size: formatDecimal(summary.requested),
    filled_size: formatDecimal(summary.filled),
    avg_price: average ? formatDecimal(average) : null,
    attempts: summary.attempts,
    slippage_bps:
      average && summary.reference
        ? formatDecimal(slippageBps(venue.side, summary.reference, average))
        : null,
    spread_achieved:
      average && makerPrice
        ? formatDecimal(
            spreadAchieved({
              makerLeg: context.makerLeg,
              makerPrice,
              hedgePrice: average,
              spreadType: context.spreadType(),
              coarserTickSize: context.coarserTickSize,
            }),
          )
        : null,
    guard_fill_class: summary.guardFillClass,
    cause: summary.cause,
    ...(summary.fromFills
      ? { settled_from: 'fills', venue_position: summary.fromFills.position }
      : {}),
  });
}

/**
 * hedge_timeout: no further attempt goes; what was not confirmed hedged then
 * (an IOC still at the venue may yet fill: its hedge_outcome says what did).
 */
export function hedgeTimeoutEntry(
  context: HedgeContext,
  timedOut: { lastOrderId: string | null; waitedMs: number; unhedged: Big; cause: string },
): LogEntry {
  return logEntry('hedge_timeout', {
    exchange: context.venue.leg.venue,
    order_id: timedOut.lastOrderId,
    // Up: the timer fires by the event loop's millisecond clock, which may trail this one.
    waited_ms: Math.ceil(timedOut.waitedMs),
    unhedged_size: formatDecimal(timedOut.unhedged),
    cause: timedOut.cause,
  });
}

/** The trade's failure_reason when a hedge ends so (timeout, refusal on `exchange`). */
export function hedgeFailureReason(
  result: 'timeout' | 'rejected',
  exchange: string,
  hedgeTimeoutMs: number,
): string {
  return result === 'timeout'
    ? `hedge timed out after ${hedgeTimeoutMs} ms on ${exchange}`
    : `hedge refused by ${exchange}`;
}
