import Big from 'big.js';
import type { DataSource } from 'typeorm';
import type { TokenBucket } from '@sts/budget-client';
import { formatDecimal, hedgeSide, makerSide, type PricedFill, type SizeType } from '@sts/domain';
import type { VenueFill } from '@sts/venues';
import { logEntry, type LogEntry } from '@sts/contracts';
import { readLoggedFills, type LoggedFills } from '../execution-log/logged-fills';
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
  const openOrdersCanceled = await cancelStrayOrdersOnBoth(input);
  const venue = await readVenueFills(input);
  const logged = await readLoggedFills(input.db, input.record.id);
  const maker = reconcileMakerFills(
    input.fills,
    logged.makerFills,
    venue.maker,
    input.legs.market.makerMarket.quote ?? null,
  );
  const hedge = reconcileHedges(input, logged, venue.hedge);
  return {
    openOrdersCanceled,
    fillsReconciled: maker.entries.length + hedge.entries.length,
    makerFills: maker.makerFills,
    hedged: hedge.hedged,
    entries: [...maker.entries, ...hedge.entries],
    filledSize: input.fills.filled(input.sizeType),
  };
}

/** The dead worker's orders off the maker book, then the hedge book. */
async function cancelStrayOrdersOnBoth(input: ReconcileInput): Promise<number> {
  const { record, legs } = input;
  return (
    (await cancelStrayOrders(
      legs.makerClient,
      input.makerBucket,
      record.id,
      legs.market.makerMarket.symbol,
    )) +
    (await cancelStrayOrders(
      legs.hedgeClient,
      input.hedgeBucket,
      record.id,
      legs.market.hedgeMarket.symbol,
    ))
  );
}

/** Both accounts' fills of this trade, maker first. */
async function readVenueFills(
  input: ReconcileInput,
): Promise<{ maker: VenueFill[]; hedge: VenueFill[] }> {
  const { record, legs } = input;
  const since = record.createdAt.getTime() - CLOCK_SKEW_MARGIN_MS;
  const maker = await tradeMakerFills(legs, input.makerBucket, record);
  const hedge = await tradeFills(
    legs.hedgeClient,
    input.hedgeBucket,
    record.id,
    { kind: 'hedge', side: hedgeSide(record.makerLeg) },
    since,
    legs.market.hedgeMarket.symbol,
  );
  return { maker, hedge };
}

/** The maker account's fills of the trade since it was created (less the clock skew margin). */
export function tradeMakerFills(
  legs: TradeLegs,
  bucket: TokenBucket,
  record: TradeRecord,
): Promise<VenueFill[]> {
  return tradeFills(
    legs.makerClient,
    bucket,
    record.id,
    { kind: 'maker', side: makerSide(record.makerLeg) },
    record.createdAt.getTime() - CLOCK_SKEW_MARGIN_MS,
    legs.market.makerMarket.symbol,
  );
}

/** The logged maker fills, then the venue's the log lacks (each logged now). */
function reconcileMakerFills(
  fills: MakerFills,
  logged: LoggedFills['makerFills'],
  venueFills: VenueFill[],
  feeAsset: string | null,
): { makerFills: PricedFill[]; entries: LogEntry[] } {
  const makerFills: PricedFill[] = [];
  const entries: LogEntry[] = [];
  for (const fill of logged) {
    if (fills.record(fill.fillId, fill.price, fill.size)) {
      makerFills.push({ price: fill.price, size: fill.size });
    }
  }
  for (const fill of venueFills) {
    const price = new Big(fill.price);
    const size = new Big(fill.size);
    if (!fills.record(fill.fillId, price, size)) {
      continue;
    }
    makerFills.push({ price, size });
    entries.push(makerFillEntry(fill, feeAsset));
  }
  return { makerFills, entries };
}

/** The hedge orders the venue filled: the ones the log lacks are logged, the size is the venue's. */
function reconcileHedges(
  input: ReconcileInput,
  logged: LoggedFills,
  venueFills: VenueFill[],
): { hedged: Big; entries: LogEntry[] } {
  const { record, legs } = input;
  const entries: LogEntry[] = [];
  let venueHedged = new Big(0);
  for (const order of hedgeOrdersOf(venueFills)) {
    venueHedged = venueHedged.plus(order.size);
    if (logged.hedgeOrderIds.has(order.orderId)) {
      continue;
    }
    entries.push(
      logEntry('hedge_filled', {
        exchange: record.hedgeExchange,
        side: legs.market.makerLeg === 'long' ? 'sell' : 'buy',
        price: formatDecimal(order.price),
        size: formatDecimal(order.size),
        order_id: order.orderId,
        timestamp_ms: order.timestampMs,
        client_order_id: order.clientOrderId,
        fee: order.fee ? formatDecimal(order.fee) : null,
        fee_asset: order.fee ? (legs.market.hedgeMarket.quote ?? null) : null,
        liquidity: order.liquidity,
      }),
    );
  }
  // The venue is the truth; the log can only lag it (a venue that forgot old fills would be the exception).
  return { hedged: venueHedged.gte(logged.hedged) ? venueHedged : logged.hedged, entries };
}

/** maker_fill of a venue fill; `feeAsset` is its market's quote asset (null when unknown). */
export function makerFillEntry(fill: VenueFill, feeAsset: string | null): LogEntry {
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
