import { MessageValidationError } from '../envelope';
import { booleanField, integerField, objectOf, oneOf, stringField } from '../guards';
import {
  EXECUTION_EVENT_TYPES,
  HEDGE_RESULTS,
  MARKOUT_HORIZONS_S,
  UNWIND_RESULTS,
  type ChunkCompletedData,
  type ChunkStartedData,
  type ExecutionEventType,
  type FastMoveGuardData,
  type HedgeFilledData,
  type HedgeOutcomeData,
  type HedgeSentData,
  type HedgeTimeoutData,
  type Liquidity,
  type LogDataOf,
  type LogEntry,
  type MakerFillData,
  type MarkoutData,
  type QuotingData,
  type RecoveryCompletedData,
  type UnwindOutcomeData,
  type UnwindSentData,
} from './log-entries';

/**
 * The decoders of the execution log: each entry's data as `trade_events`
 * holds it, checked and typed. Every reader of the log goes through them
 * (`decodeLogEntry`); nothing reads `data['...']` by hand. Entries are
 * decoded as they were written over the log's life: fields added later
 * (fees, liquidity, a hedge's cause) read as null or their old meaning when
 * an older entry lacks them, never as a guess of a value.
 */

/** The name a decoding error gives: `execution log <type>`. */
const typeName = (eventType: string): string => `execution log ${eventType}`;

/** A plain or scientific decimal, as the log writes sizes and prices (strings). */
const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

type Data = Record<string, unknown>;

function decimal(type: string, data: Data, field: string): string {
  const value = stringField(type, data, field);
  if (!DECIMAL.test(value)) {
    throw new MessageValidationError(type, `${field} must be a decimal string`);
  }
  return value;
}

function decimalOrNull(type: string, data: Data, field: string): string | null {
  return data[field] === undefined || data[field] === null ? null : decimal(type, data, field);
}

function textOrNull(type: string, data: Data, field: string): string | null {
  return data[field] === undefined || data[field] === null ? null : stringField(type, data, field);
}

function finite(type: string, data: Data, field: string): number {
  const value = data[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MessageValidationError(type, `${field} must be a number`);
  }
  return value;
}

const side = (type: string, data: Data): 'buy' | 'sell' =>
  oneOf(type, data, 'side', ['buy', 'sell'] as const);

/** A fill's liquidity; an entry from before it was logged took what its leg takes. */
const liquidity = (type: string, data: Data, otherwise: Liquidity): Liquidity =>
  data['liquidity'] === undefined
    ? otherwise
    : oneOf(type, data, 'liquidity', ['maker', 'taker'] as const);

function makerFill(type: string, data: Data): MakerFillData {
  return {
    exchange: stringField(type, data, 'exchange'),
    market: stringField(type, data, 'market'),
    side: side(type, data),
    price: decimal(type, data, 'price'),
    size: decimal(type, data, 'size'),
    order_id: stringField(type, data, 'order_id'),
    client_order_id: stringField(type, data, 'client_order_id'),
    fully_filled: booleanField(type, data, 'fully_filled'),
    timestamp_ms: integerField(type, data, 'timestamp_ms'),
    fill_id: stringField(type, data, 'fill_id'),
    fee: decimalOrNull(type, data, 'fee'),
    fee_asset: textOrNull(type, data, 'fee_asset'),
    liquidity: liquidity(type, data, 'maker'),
  };
}

function hedgeSent(type: string, data: Data): HedgeSentData {
  const extended = data['deadline_extended_ms'];
  return {
    exchange: stringField(type, data, 'exchange'),
    side: side(type, data),
    size: decimal(type, data, 'size'),
    price: decimal(type, data, 'price'),
    client_order_id: stringField(type, data, 'client_order_id'),
    attempt: integerField(type, data, 'attempt'),
    cause: stringField(type, data, 'cause'),
    ...(extended === undefined
      ? {}
      : { deadline_extended_ms: integerField(type, data, 'deadline_extended_ms') }),
    ...(data['arrival_mid'] === undefined
      ? {}
      : { arrival_mid: decimalOrNull(type, data, 'arrival_mid') }),
  };
}

function hedgeFilled(type: string, data: Data): HedgeFilledData {
  return {
    exchange: stringField(type, data, 'exchange'),
    side: side(type, data),
    price: decimal(type, data, 'price'),
    size: decimal(type, data, 'size'),
    order_id: stringField(type, data, 'order_id'),
    timestamp_ms: integerField(type, data, 'timestamp_ms'),
    client_order_id: stringField(type, data, 'client_order_id'),
    fee: decimalOrNull(type, data, 'fee'),
    fee_asset: textOrNull(type, data, 'fee_asset'),
    liquidity: liquidity(type, data, 'taker'),
  };
}

function hedgeOutcome(type: string, data: Data): HedgeOutcomeData {
  const guard = data['guard_fill_class'];
  return {
    result: oneOf(type, data, 'result', HEDGE_RESULTS),
    exchange: stringField(type, data, 'exchange'),
    side: side(type, data),
    requested_size: decimal(type, data, 'requested_size'),
    filled_size: decimal(type, data, 'filled_size'),
    avg_price: decimalOrNull(type, data, 'avg_price'),
    attempts: integerField(type, data, 'attempts'),
    slippage_bps: decimalOrNull(type, data, 'slippage_bps'),
    spread_achieved: decimalOrNull(type, data, 'spread_achieved'),
    guard_fill_class:
      guard === undefined || guard === null
        ? null
        : oneOf(type, data, 'guard_fill_class', ['after_trigger', 'adverse'] as const),
    cause: stringField(type, data, 'cause'),
  };
}

function hedgeTimeout(type: string, data: Data): HedgeTimeoutData {
  return {
    exchange: stringField(type, data, 'exchange'),
    order_id: textOrNull(type, data, 'order_id'),
    waited_ms: integerField(type, data, 'waited_ms'),
    unhedged_size: decimal(type, data, 'unhedged_size'),
    cause: stringField(type, data, 'cause'),
  };
}

const chunkStarted = (type: string, data: Data): ChunkStartedData => ({
  target_size: decimal(type, data, 'target_size'),
  size_type: stringField(type, data, 'size_type'),
  ...(data['spread_at_start'] === undefined
    ? {}
    : { spread_at_start: decimalOrNull(type, data, 'spread_at_start') }),
});

/** A chunk's end; entries from before residuals were logged left none ("0"). */
const chunkCompleted = (type: string, data: Data): ChunkCompletedData => ({
  filled_size: decimal(type, data, 'filled_size'),
  reason: oneOf(type, data, 'reason', ['target_reached', 'canceled', 'failed'] as const),
  residual_unhedged: decimalOrNull(type, data, 'residual_unhedged') ?? '0',
  residual_unwound: decimalOrNull(type, data, 'residual_unwound') ?? '0',
});

function recoveryCompleted(type: string, data: Data): RecoveryCompletedData {
  return {
    previous_worker_id: textOrNull(type, data, 'previous_worker_id'),
    open_orders_canceled: integerField(type, data, 'open_orders_canceled'),
    fills_reconciled: integerField(type, data, 'fills_reconciled'),
    rehedged_size: decimal(type, data, 'rehedged_size'),
    ...(data['cause'] === undefined
      ? {}
      : { cause: oneOf(type, data, 'cause', ['handover'] as const) }),
  };
}

function fastMoveGuard(type: string, data: Data): FastMoveGuardData {
  const references = objectOf(type, data['references']);
  return {
    move: finite(type, data, 'move'),
    threshold: finite(type, data, 'threshold'),
    references: {
      from: decimal(type, references, 'from'),
      to: decimal(type, references, 'to'),
      window_ms: integerField(type, references, 'window_ms'),
    },
    action: oneOf(type, data, 'action', ['cancel_and_hold', 'shadow'] as const),
  };
}

function unwindSent(type: string, data: Data): UnwindSentData {
  if (data['reduce_only'] !== true) {
    throw new MessageValidationError(type, 'reduce_only must be true');
  }
  return {
    exchange: stringField(type, data, 'exchange'),
    side: side(type, data),
    size: decimal(type, data, 'size'),
    price: decimal(type, data, 'price'),
    client_order_id: stringField(type, data, 'client_order_id'),
    reduce_only: true,
  };
}

function unwindOutcome(type: string, data: Data): UnwindOutcomeData {
  return {
    result: oneOf(type, data, 'result', UNWIND_RESULTS),
    exchange: stringField(type, data, 'exchange'),
    side: side(type, data),
    requested_size: decimal(type, data, 'requested_size'),
    filled_size: decimal(type, data, 'filled_size'),
    avg_price: decimalOrNull(type, data, 'avg_price'),
    order_id: textOrNull(type, data, 'order_id'),
    client_order_id: textOrNull(type, data, 'client_order_id'),
    fee: decimalOrNull(type, data, 'fee'),
    fee_asset: textOrNull(type, data, 'fee_asset'),
    reason: textOrNull(type, data, 'reason'),
  };
}

const markout = (type: string, data: Data): MarkoutData => {
  const horizon = integerField(type, data, 'horizon_s');
  const known = MARKOUT_HORIZONS_S.find((one) => one === horizon);
  if (known === undefined) {
    throw new MessageValidationError(
      type,
      `horizon_s must be one of ${MARKOUT_HORIZONS_S.join(', ')}`,
    );
  }
  return {
    fill_id: stringField(type, data, 'fill_id'),
    horizon_s: known,
    mid: decimal(type, data, 'mid'),
    bps: decimal(type, data, 'bps'),
  };
};

const quoting = (type: string, data: Data): QuotingData => ({
  exchange: stringField(type, data, 'exchange'),
  side: side(type, data),
  from_ms: integerField(type, data, 'from_ms'),
  until_ms: integerField(type, data, 'until_ms'),
  quoted_ms: integerField(type, data, 'quoted_ms'),
  placed: integerField(type, data, 'placed'),
  replaced: integerField(type, data, 'replaced'),
  canceled: integerField(type, data, 'canceled'),
});

const DECODERS: { [T in ExecutionEventType]: (type: string, data: Data) => LogDataOf[T] } = {
  maker_fill: makerFill,
  hedge_sent: hedgeSent,
  hedge_filled: hedgeFilled,
  hedge_outcome: hedgeOutcome,
  hedge_timeout: hedgeTimeout,
  chunk_started: chunkStarted,
  chunk_completed: chunkCompleted,
  recovery_completed: recoveryCompleted,
  fast_move_guard: fastMoveGuard,
  unwind_sent: unwindSent,
  unwind_outcome: unwindOutcome,
  markout,
  quoting,
};

export const isExecutionEventType = (value: string): value is ExecutionEventType =>
  (EXECUTION_EVENT_TYPES as readonly string[]).includes(value);

/** One entry's data as its type says; throws MessageValidationError when it is not. */
export function decodeLogData<T extends ExecutionEventType>(
  eventType: T,
  data: unknown,
): LogDataOf[T] {
  const type = typeName(eventType);
  return DECODERS[eventType](type, objectOf(type, data)) as LogDataOf[T];
}

/** An entry read back from `trade_events` (its event_type and data), decoded. */
export function decodeLogEntry(eventType: string, data: unknown): LogEntry {
  if (!isExecutionEventType(eventType)) {
    throw new MessageValidationError(typeName(eventType), 'unknown event type');
  }
  return { eventType, data: decodeLogData(eventType, data) } as LogEntry;
}

/** A data field's name as SQL may quote it. */
const SQL_FIELD = /^[a-z][a-z_]*$/;

/**
 * A field of an entry's data as SQL text (`e.data->>'size'`), for the one
 * statement that sums the log in the database (a user's implied positions):
 * the field must be one of its entry type's data fields, so a field renamed
 * in the schema fails the type check there, and no statement spells a field
 * by hand.
 */
export function logFieldSql<T extends ExecutionEventType>(
  eventType: T,
  field: keyof LogDataOf[T] & string,
  alias = 'e',
): string {
  if (!SQL_FIELD.test(field) || !/^[a-z]+$/.test(alias)) {
    throw new Error(`execution log ${eventType}: ${field} is not a field SQL may name`);
  }
  return `${alias}.data->>'${field}'`;
}
