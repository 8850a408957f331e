/**
 * The execution log's entries and their data (interface.md Events, decisions
 * section 6): the one schema of `trade_events.data`, written by the worker
 * and read, through the decoders of `log-decoders.ts`, by every reader.
 * Decimals are strings, times integers in milliseconds. Fields beyond the
 * documented ones (fill_id, client_order_id, attempt) are what a replacement
 * worker needs to reconcile the log with the venues.
 */
export const EXECUTION_EVENT_TYPES = [
  'maker_fill',
  'hedge_sent',
  'hedge_filled',
  'hedge_outcome',
  'hedge_timeout',
  'chunk_started',
  'chunk_completed',
  'recovery_completed',
  'fast_move_guard',
  'unwind_sent',
  'unwind_outcome',
  'markout',
  'quoting',
] as const;
export type ExecutionEventType = (typeof EXECUTION_EVENT_TYPES)[number];

/** An entry: its data typed by its event type (a union over the types when `T` is). */
export type LogEntry<T extends ExecutionEventType = ExecutionEventType> = {
  [K in T]: { eventType: K; data: LogDataOf[K] };
}[T];

export interface MakerFillData {
  exchange: string;
  market: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  order_id: string;
  client_order_id: string;
  fully_filled: boolean;
  timestamp_ms: number;
  fill_id: string;
  /** The venue's fee for this fill (negative for a rebate); null when the venue did not report one. */
  fee: string | null;
  /** The fee's asset: the quote (settlement) asset of the venue's market; null when unknown. */
  fee_asset: string | null;
  liquidity: Liquidity;
}

/** Whether a fill added liquidity (maker) or took it (taker), as the venue reported it. */
export type Liquidity = 'maker' | 'taker';

export interface HedgeSentData {
  exchange: string;
  side: 'buy' | 'sell';
  size: string;
  /** The IOC limit. */
  price: string;
  client_order_id: string;
  attempt: number;
  /** The maker fill (or recovery) the hedge covers. */
  cause: string;
  /**
   * Present when an earlier attempt's answer was lost and its fate could be
   * known only after hedge_timeout_ms: how far past the timeout this hedge
   * may run (its request bound on the venue plus a hedge timeout).
   */
  deadline_extended_ms?: number;
  /**
   * The hedge venue's mid when the IOC went, from the book the worker held
   * (the arrival price its slippage is also judged against); null when that
   * book was stale or missing, absent from entries written before it was.
   */
  arrival_mid?: string | null;
}

export interface HedgeFilledData {
  exchange: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  order_id: string;
  timestamp_ms: number;
  client_order_id: string;
  /** The sum of the order's fill fees; null when the venue did not report a fee for every fill. */
  fee: string | null;
  fee_asset: string | null;
  liquidity: Liquidity;
}

export const HEDGE_RESULTS = ['filled', 'partial', 'rejected', 'timeout'] as const;
export type HedgeResult = (typeof HEDGE_RESULTS)[number];

export interface HedgeOutcomeData {
  result: HedgeResult;
  exchange: string;
  side: 'buy' | 'sell';
  requested_size: string;
  filled_size: string;
  avg_price: string | null;
  attempts: number;
  slippage_bps: string | null;
  spread_achieved: string | null;
  guard_fill_class: 'after_trigger' | 'adverse' | null;
  cause: string;
}

export interface HedgeTimeoutData {
  exchange: string;
  order_id: string | null;
  waited_ms: number;
  unhedged_size: string;
  /** The maker fill (or recovery) of the hedge that timed out, as its hedge_sent and hedge_outcome name it. */
  cause: string;
}

export interface ChunkStartedData {
  target_size: string;
  size_type: string;
  /**
   * The spread a maker order at the maker venue's touch would have captured
   * against the hedge reference H as the trade went active, in its
   * spread_type units: the market the trader started in (what the realised
   * spread is judged against beside the target). Null when a book was not
   * fresh then; absent from entries written before it was kept.
   */
  spread_at_start?: string | null;
}

export interface ChunkCompletedData {
  filled_size: string;
  reason: 'target_reached' | 'canceled' | 'failed';
  /** Maker fills never hedged: below the hedge venue's lot or minimums (decisions 2), in base units. */
  residual_unhedged: string;
  /** Of residual_unhedged, what the reduce-only unwind on the maker venue took back ("0": none). */
  residual_unwound: string;
}

/** The reduce-only IOC that unwinds residual_unhedged on the maker venue, as sent. */
export interface UnwindSentData {
  exchange: string;
  side: 'buy' | 'sell';
  size: string;
  /** The IOC limit: the maker touch it takes, less max_slippage. */
  price: string;
  client_order_id: string;
  reduce_only: true;
}

/**
 * What became of residual_unhedged at the trade's end: `filled` or `partial`
 * (the unwind took all or part of it back), `not_filled` (the IOC found
 * nothing within its limit), `rejected` (the venue refused it), `unknown`
 * (its fate could not be learned), or no order at all: `below_minimum` (the
 * maker venue's min_size or min_notional refuses it), `no_price` (no maker
 * book to price it from) or `halted` (maintenance, the kill switch or a
 * halted venue holds the trade's venues: no order goes out). What it did not
 * take stays with the trader's wallet, named on the trade.
 */
export const UNWIND_RESULTS = [
  'filled',
  'partial',
  'not_filled',
  'rejected',
  'unknown',
  'below_minimum',
  'no_price',
  'halted',
] as const;
export type UnwindResult = (typeof UNWIND_RESULTS)[number];

export interface UnwindOutcomeData {
  result: UnwindResult;
  exchange: string;
  side: 'buy' | 'sell';
  /** residual_unhedged: what was to be unwound. */
  requested_size: string;
  filled_size: string;
  avg_price: string | null;
  order_id: string | null;
  client_order_id: string | null;
  fee: string | null;
  fee_asset: string | null;
  /** Why nothing (or not all) was unwound, in words; null when all was. */
  reason: string | null;
}

export interface RecoveryCompletedData {
  previous_worker_id: string | null;
  open_orders_canceled: number;
  fills_reconciled: number;
  rehedged_size: string;
  /**
   * `handover`: the previous worker shut down gracefully and released the
   * trade quiet. Absent after a crash (its lease expired), as it always was.
   */
  cause?: 'handover';
}

export interface FastMoveGuardData {
  move: number;
  threshold: number;
  references: { from: string; to: string; window_ms: number };
  action: 'cancel_and_hold' | 'shadow';
}

/** The horizons a maker fill is marked out at, in seconds after the fill. */
export const MARKOUT_HORIZONS_S = [1, 10, 60] as const;
export type MarkoutHorizon = (typeof MARKOUT_HORIZONS_S)[number];

/**
 * Was a maker fill adverse? The maker venue's mid `horizon_s` after the fill
 * (from the book the worker holds), against the fill's price, in bps, signed
 * so that positive is good for the trader: after a maker buy, a mid above the
 * price; after a sell, one below it. Logged once per fill and horizon; a
 * horizon no owner held a book at is never logged (read as null).
 */
export interface MarkoutData {
  fill_id: string;
  horizon_s: MarkoutHorizon;
  mid: string;
  bps: string;
}

/**
 * A spell of one owner's quoting on the maker venue, since its previous
 * `quoting` entry (or its start) until `until_ms`: how long a maker order
 * was out (from its placement's send until it was known closed), how many
 * orders it placed (a replace's new order included), replaced and
 * canceled. Logged with each maker fill the stream brings, at a graceful
 * handover and as the trade ends, so the spells add up to the trade's
 * quoting; what an owner did after its last entry before it crashed is
 * not counted (never guessed).
 */
export interface QuotingData {
  exchange: string;
  side: 'buy' | 'sell';
  /** Epoch ms. */
  from_ms: number;
  until_ms: number;
  quoted_ms: number;
  placed: number;
  replaced: number;
  canceled: number;
}

/** Each entry type's data. */
export interface LogDataOf {
  maker_fill: MakerFillData;
  hedge_sent: HedgeSentData;
  hedge_filled: HedgeFilledData;
  hedge_outcome: HedgeOutcomeData;
  hedge_timeout: HedgeTimeoutData;
  chunk_started: ChunkStartedData;
  chunk_completed: ChunkCompletedData;
  recovery_completed: RecoveryCompletedData;
  fast_move_guard: FastMoveGuardData;
  unwind_sent: UnwindSentData;
  unwind_outcome: UnwindOutcomeData;
  markout: MarkoutData;
  quoting: QuotingData;
}

/** A typed entry: the data must match its event type. */
export const logEntry = <T extends ExecutionEventType>(
  eventType: T,
  data: LogDataOf[T],
): LogEntry<T> => ({ eventType, data }) as LogEntry<T>;
