import Big from 'big.js';
import type { DataSource } from 'typeorm';
import type { TokenBucket } from '@sts/budget-client';
import { formatDecimal, type PricedFill, type SizeType } from '@sts/domain';
import type { VenueFill } from '@sts/venues';
import { logEntry, type LogEntry } from '../execution-log/log-entries';
import { readLoggedFills } from '../execution-log/logged-fills';
import type { TradeRecord } from '../trades/trade-record';
import type { MakerFills } from '../trade-runner/maker-fills';
import type { TradeLegs } from '../trade-runner/trade-legs';
import { cancelStrayOrders, hedgeOrdersOf, tradeFills } from './venue-truth';

/** Venue fills are read from a little before the trade was created (clock skew between hosts). */
const CLOCK_SKEW_MARGIN_MS = 60_000;

export interface Reconciliation {
  openOrdersCanceled: number;
  /** Fills found on the venues that the log did not have. */
  fillsReconciled: number;
  makerFills: PricedFill[];
  hedged: Big;
  /** maker_fill and hedge_filled entries the log was missing. */
  entries: LogEntry[];
  filledSize: Big;
}

export interface ReconcileInput {
  db: DataSource;
  record: TradeRecord;
  legs: TradeLegs;
  makerBucket: TokenBucket;
  hedgeBucket: TokenBucket | null;
  fills: MakerFills;
  sizeType: SizeType;
}

/**
 * What a replacement worker does before trusting anything: takes the dead
 * worker's orders off both books (so nothing more can fill), then reads both
 * accounts' fills of this trade and sets them against the log. The venues are
 * the truth: a fill they report and the log lacks is logged now, and the
 * hedged size is what the hedge venue filled, not what was logged.
 */
export async function reconcileTrade(input: ReconcileInput): Promise<Reconciliation> {
  const { record, legs, fills } = input;
  const market = legs.market;
  const openOrdersCanceled =
    (await cancelStrayOrders(
      legs.makerClient,
      input.makerBucket,
      record.id,
      market.makerMarket.symbol,
    )) +
    (await cancelStrayOrders(
      legs.hedgeClient,
      input.hedgeBucket,
      record.id,
      market.hedgeMarket.symbol,
    ));

  const since = record.createdAt.getTime() - CLOCK_SKEW_MARGIN_MS;
  const makerVenueFills = await tradeFills(
    legs.makerClient,
    input.makerBucket,
    record.id,
    'maker',
    since,
    market.makerMarket.symbol,
  );
  const hedgeVenueFills = await tradeFills(
    legs.hedgeClient,
    input.hedgeBucket,
    record.id,
    'hedge',
    since,
    market.hedgeMarket.symbol,
  );
  const logged = await readLoggedFills(input.db, record.id);

  const entries: LogEntry[] = [];
  const makerFills: PricedFill[] = [];
  let fillsReconciled = 0;
  for (const fill of logged.makerFills) {
    if (fills.record(fill.fillId, fill.price, fill.size)) {
      makerFills.push({ price: fill.price, size: fill.size });
    }
  }
  for (const fill of makerVenueFills) {
    const price = new Big(fill.price);
    const size = new Big(fill.size);
    if (!fills.record(fill.fillId, price, size)) {
      continue;
    }
    makerFills.push({ price, size });
    fillsReconciled += 1;
    entries.push(makerFillEntry(fill));
  }

  const hedgeOrders = hedgeOrdersOf(hedgeVenueFills);
  let venueHedged = new Big(0);
  for (const order of hedgeOrders) {
    venueHedged = venueHedged.plus(order.size);
    if (logged.hedgeOrderIds.has(order.orderId)) {
      continue;
    }
    fillsReconciled += 1;
    entries.push(
      logEntry('hedge_filled', {
        exchange: record.hedgeExchange,
        side: market.makerLeg === 'long' ? 'sell' : 'buy',
        price: formatDecimal(order.price),
        size: formatDecimal(order.size),
        order_id: order.orderId,
        timestamp_ms: order.timestampMs,
        client_order_id: order.clientOrderId,
      }),
    );
  }
  // The venue is the truth; the log can only lag it (a venue that forgot old fills would be the exception).
  const hedged = venueHedged.gte(logged.hedged) ? venueHedged : logged.hedged;
  return {
    openOrdersCanceled,
    fillsReconciled,
    makerFills,
    hedged,
    entries,
    filledSize: fills.filled(input.sizeType),
  };
}

export function makerFillEntry(fill: VenueFill): LogEntry {
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
  });
}
