import Big from 'big.js';
import { fillAmount } from '../sizing/size-type';
import type { SizeType } from './trade-terms';

/**
 * An execution-log entry as the fold reads it: the fields of the contracts'
 * `LogEntry` that change a trade (libs/contracts depends on this library, so
 * the fold names the fields it reads and any `LogEntry` is one of these).
 */
export type LedgerEntry =
  | {
      eventType: 'maker_fill';
      data: { fill_id: string; price: string; size: string; timestamp_ms: number };
    }
  | { eventType: 'markout'; data: { fill_id: string; horizon_s: number } }
  | { eventType: 'hedge_filled'; data: { order_id: string; size: string } }
  | { eventType: 'hedge_outcome'; data: { result: LedgerHedgeResult; exchange: string } }
  | { eventType: 'chunk_started'; data: object }
  | { eventType: 'chunk_completed'; data: object }
  | {
      eventType:
        | 'hedge_sent'
        | 'hedge_timeout'
        | 'recovery_completed'
        | 'fast_move_guard'
        | 'unwind_sent'
        | 'unwind_outcome'
        | 'quoting';
      data: object;
    };

export type LedgerHedgeResult = 'filled' | 'partial' | 'rejected' | 'timeout';

/** A maker fill as the log holds it. */
export interface LedgerFill {
  readonly fillId: string;
  readonly price: Big;
  readonly size: Big;
  /** When the venue filled it (epoch ms, the venue's clock). */
  readonly timestampMs: number;
}

/** A hedge that ended so that the trade cannot go on (decisions 2). */
export interface LedgerHedgeFailure {
  readonly result: 'timeout' | 'rejected';
  readonly exchange: string;
}

/**
 * What a trade's execution log says of it: the fold of its entries, in
 * order. The worker's live state is this fold of what it logs (TradeState
 * applies every entry it hands the journal), and every start (validate,
 * recover, resume) folds the log it finds, so the two cannot drift apart.
 * Maker fills count once by the venue's fill id, hedge fills once by the
 * venue's order id (a fill may reach the log from the stream and again from
 * a reconciliation's read of the venue).
 */
export interface TradeLedger {
  /** Maker fills in the order they were logged. */
  readonly makerFills: readonly LedgerFill[];
  readonly fillIds: ReadonlySet<string>;
  /** Sum of maker fills, base units. */
  readonly makerFilled: Big;
  /** Sum of maker fills' price × size. */
  readonly makerNotional: Big;
  /** Sum of hedge_filled sizes, base units: what the hedge venue confirmed. */
  readonly hedged: Big;
  readonly hedgeOrderIds: ReadonlySet<string>;
  /** The markouts logged, by markoutKey (fill id and horizon). */
  readonly markouts: ReadonlySet<string>;
  readonly chunkStarted: boolean;
  readonly chunkCompleted: boolean;
  /** The first hedge that timed out or was refused: the trade fails. */
  readonly hedgeFailure: LedgerHedgeFailure | null;
  /** Entries folded. */
  readonly entries: number;
}

const NO_IDS: ReadonlySet<string> = new Set();

export const emptyLedger = (): TradeLedger => ({
  makerFills: [],
  fillIds: NO_IDS,
  makerFilled: new Big(0),
  makerNotional: new Big(0),
  hedged: new Big(0),
  hedgeOrderIds: NO_IDS,
  markouts: NO_IDS,
  chunkStarted: false,
  chunkCompleted: false,
  hedgeFailure: null,
  entries: 0,
});

/** The key of a fill's markout at a horizon (TradeLedger.markouts). */
export const markoutKey = (fillId: string, horizonS: number): string => `${fillId}@${horizonS}`;

const withId = (ids: ReadonlySet<string>, id: string): ReadonlySet<string> => new Set(ids).add(id);

/**
 * What one entry does to a trade: a pure function of the ledger before it
 * and the entry. An entry that changes nothing (a maker fill or hedge order
 * already counted, a record of what was done) leaves every field but the
 * count as it was.
 */
export function applyEntry(ledger: TradeLedger, entry: LedgerEntry): TradeLedger {
  const counted = { ...ledger, entries: ledger.entries + 1 };
  switch (entry.eventType) {
    case 'maker_fill':
      return withMakerFill(counted, entry.data);
    case 'hedge_filled':
      if (!addsFill(ledger, entry)) {
        return counted;
      }
      return {
        ...counted,
        hedged: ledger.hedged.plus(entry.data.size),
        hedgeOrderIds: withId(ledger.hedgeOrderIds, entry.data.order_id),
      };
    case 'hedge_outcome':
      return withHedgeOutcome(counted, entry.data);
    case 'chunk_started':
      return { ...counted, chunkStarted: true };
    case 'chunk_completed':
      return { ...counted, chunkCompleted: true };
    case 'hedge_sent':
    case 'hedge_timeout':
    case 'recovery_completed':
    case 'fast_move_guard':
    case 'unwind_sent':
    case 'unwind_outcome':
    case 'quoting':
      return counted;
    case 'markout':
      return {
        ...counted,
        markouts: withId(ledger.markouts, markoutKey(entry.data.fill_id, entry.data.horizon_s)),
      };
  }
}

/**
 * Whether `entry` is a fill the ledger has not counted: a maker fill new by
 * its venue fill id, a hedge order new by its venue order id. The one rule
 * every reader counts a trade's fills by (a fill may be logged twice: from
 * the stream and from a takeover's read of the venue).
 */
export function addsFill(ledger: TradeLedger, entry: LedgerEntry): boolean {
  if (entry.eventType === 'maker_fill') {
    return !ledger.fillIds.has(entry.data.fill_id);
  }
  return entry.eventType === 'hedge_filled' && !ledger.hedgeOrderIds.has(entry.data.order_id);
}

/** The entries of a log that add a fill (addsFill), in order: each fill once. */
export function countedFills<E extends LedgerEntry>(entries: Iterable<E>): E[] {
  let ledger = emptyLedger();
  const counted: E[] = [];
  for (const entry of entries) {
    if (addsFill(ledger, entry)) {
      counted.push(entry);
    }
    ledger = applyEntry(ledger, entry);
  }
  return counted;
}

function withMakerFill(
  ledger: TradeLedger,
  data: { fill_id: string; price: string; size: string; timestamp_ms: number },
): TradeLedger {
  if (ledger.fillIds.has(data.fill_id)) {
    return ledger;
  }
  const fill = {
    fillId: data.fill_id,
    price: new Big(data.price),
    size: new Big(data.size),
    timestampMs: data.timestamp_ms,
  };
  return {
    ...ledger,
    makerFills: [...ledger.makerFills, fill],
    fillIds: withId(ledger.fillIds, fill.fillId),
    makerFilled: ledger.makerFilled.plus(fill.size),
    makerNotional: ledger.makerNotional.plus(fillAmount('notional', fill.price, fill.size)),
  };
}

function withHedgeOutcome(
  ledger: TradeLedger,
  data: { result: LedgerHedgeResult; exchange: string },
): TradeLedger {
  if (ledger.hedgeFailure !== null || (data.result !== 'timeout' && data.result !== 'rejected')) {
    return ledger;
  }
  return { ...ledger, hedgeFailure: { result: data.result, exchange: data.exchange } };
}

/** Folds `entries` onto `from` (an empty ledger: the whole log). */
export const foldEntries = (
  entries: Iterable<LedgerEntry>,
  from: TradeLedger = emptyLedger(),
): TradeLedger => {
  let ledger = from;
  for (const entry of entries) {
    ledger = applyEntry(ledger, entry);
  }
  return ledger;
};

/** filled_size in the trade's size_type. */
export const ledgerFilled = (ledger: TradeLedger, sizeType: SizeType): Big =>
  sizeType === 'base' ? ledger.makerFilled : ledger.makerNotional;

/** Maker fills logged and not confirmed hedged, base units. */
export const ledgerUnhedged = (ledger: TradeLedger): Big => ledger.makerFilled.minus(ledger.hedged);
