import type { TokenBucket } from '@sts/budget-client';
import { hedgeSide, makerSide, type Side, type TradeLedger } from '@sts/domain';
import type { VenueFill } from '@sts/venues';
import type { LogEntry } from '@sts/contracts';
import { hedgeFilledEntry, makerFillEntry } from '../execution-log/fill-entries';
import type { TradeRecord } from '../trades/trade-record';
import type { TradeLegs } from '../trade-runner/trade-legs';
import { cancelStrayOrders, hedgeOrdersOf, tradeFills } from './venue-truth';

/** Venue fills are read from a little before the trade was created (clock skew between hosts). */
const CLOCK_SKEW_MARGIN_MS = 60_000;

export interface Reconciliation {
  openOrdersCanceled: number;
  /** Fills found on the venues that the log did not have. */
  fillsReconciled: number;
  /** maker_fill and hedge_filled entries the log was missing: the trade applies them. */
  entries: LogEntry[];
}

export interface ReconcileInput {
  record: TradeRecord;
  legs: TradeLegs;
  makerBucket: TokenBucket;
  hedgeBucket: TokenBucket | null;
  /** The trade's log, folded (the start's replay). */
  ledger: TradeLedger;
}

/**
 * What a replacement worker does before trusting anything: takes the dead
 * worker's orders off both books (so nothing more can fill), then reads both
 * accounts' fills of this trade and sets them against the log. The venues are
 * the truth: a fill they report and the log lacks becomes an entry, which the
 * trade applies like any other, so the hedged size is what the hedge venue
 * filled, not only what was logged.
 */
export async function reconcileTrade(input: ReconcileInput): Promise<Reconciliation> {
  const openOrdersCanceled = await cancelStrayOrdersOnBoth(input);
  const venue = await readVenueFills(input);
  const { record, legs } = input;
  const entries = missingEntries(input.ledger, venue, {
    hedgeExchange: record.hedgeExchange,
    hedgeSide: hedgeSide(record.makerLeg),
    makerQuote: legs.market.makerMarket.quote ?? null,
    hedgeQuote: legs.market.hedgeMarket.quote ?? null,
  });
  return { openOrdersCanceled, fillsReconciled: entries.length, entries };
}

/** What the entries of a reconciliation name beyond the venues' fills. */
export interface ReconciledMarkets {
  hedgeExchange: string;
  hedgeSide: Side;
  /** The markets' quote assets: the fees' assets (null when unknown). */
  makerQuote: string | null;
  hedgeQuote: string | null;
}

/**
 * The entries the log lacks, set against what the venues filled: a
 * maker_fill per venue fill not folded yet, a hedge_filled per hedge order
 * not folded yet. Pure: the takeover's reads feed it.
 */
export function missingEntries(
  ledger: TradeLedger,
  venue: { maker: readonly VenueFill[]; hedge: readonly VenueFill[] },
  markets: ReconciledMarkets,
): LogEntry[] {
  return [
    ...missingMakerFills(ledger, venue.maker, markets.makerQuote),
    ...missingHedgeOrders(ledger, venue.hedge, markets),
  ];
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

/** maker_fill of each venue fill the log lacks, in the venue's order. */
function missingMakerFills(
  ledger: TradeLedger,
  venueFills: readonly VenueFill[],
  feeAsset: string | null,
): LogEntry[] {
  const added = new Set<string>();
  const entries: LogEntry[] = [];
  for (const fill of venueFills) {
    if (ledger.fillIds.has(fill.fillId) || added.has(fill.fillId)) {
      continue;
    }
    added.add(fill.fillId);
    entries.push(makerFillEntry(fill, feeAsset));
  }
  return entries;
}

/** hedge_filled of each hedge order the venue filled and the log lacks. */
function missingHedgeOrders(
  ledger: TradeLedger,
  venueFills: readonly VenueFill[],
  markets: ReconciledMarkets,
): LogEntry[] {
  return hedgeOrdersOf(venueFills)
    .filter((order) => !ledger.hedgeOrderIds.has(order.orderId))
    .map((order) =>
      hedgeFilledEntry({
        exchange: markets.hedgeExchange,
        side: markets.hedgeSide,
        price: order.price,
        size: order.size,
        orderId: order.orderId,
        clientOrderId: order.clientOrderId,
        timestampMs: order.timestampMs,
        fee: order.fee,
        feeAsset: markets.hedgeQuote,
        liquidity: order.liquidity,
      }),
    );
}
