import { MessageValidationError } from '../envelope';
import { decodeLogData, decodeLogEntry, logFieldSql } from './log-decoders';
import { logEntry, type LogDataOf } from './log-entries';

/** One entry of every type, as the worker writes it (through logEntry, so typed). */
const WRITTEN = [
  logEntry('maker_fill', {
    exchange: 'paradex',
    market: 'BTC',
    side: 'buy',
    price: '50000.5',
    size: '0.01',
    order_id: 'o-1',
    client_order_id: 'c-1',
    fully_filled: false,
    timestamp_ms: 1_764_000_000_000,
    fill_id: 'f-1',
    fee: '-0.01',
    fee_asset: 'USDC',
    liquidity: 'maker',
  }),
  logEntry('hedge_sent', {
    exchange: 'hyperliquid',
    side: 'sell',
    size: '0.01',
    price: '49990',
    client_order_id: 'h-1',
    attempt: 2,
    cause: 'f-1',
    deadline_extended_ms: 10_250,
  }),
  logEntry('hedge_filled', {
    exchange: 'hyperliquid',
    side: 'sell',
    price: '49995',
    size: '0.01',
    order_id: 'ho-1',
    timestamp_ms: 1_764_000_000_100,
    client_order_id: 'h-1',
    fee: '0.22',
    fee_asset: 'USDC',
    liquidity: 'taker',
  }),
  logEntry('hedge_outcome', {
    result: 'filled',
    exchange: 'hyperliquid',
    side: 'sell',
    requested_size: '0.01',
    filled_size: '0.01',
    avg_price: '49995',
    attempts: 2,
    slippage_bps: '1.2',
    spread_achieved: '-5.5',
    guard_fill_class: null,
    cause: 'f-1',
  }),
  logEntry('hedge_timeout', {
    exchange: 'hyperliquid',
    order_id: null,
    waited_ms: 3_000,
    unhedged_size: '0.01',
    cause: 'f-1',
  }),
  logEntry('chunk_started', { target_size: '0.1', size_type: 'base' }),
  logEntry('chunk_completed', {
    filled_size: '0.1',
    reason: 'target_reached',
    residual_unhedged: '0',
    residual_unwound: '0',
  }),
  logEntry('recovery_completed', {
    previous_worker_id: 'w-1',
    open_orders_canceled: 1,
    fills_reconciled: 2,
    rehedged_size: '0.01',
    cause: 'handover',
  }),
  logEntry('fast_move_guard', {
    move: 41.5,
    threshold: 40,
    references: { from: '50000', to: '50207.5', window_ms: 1_000 },
    action: 'cancel_and_hold',
  }),
  logEntry('unwind_sent', {
    exchange: 'paradex',
    side: 'sell',
    size: '0.0004',
    price: '49900',
    client_order_id: 'u-1',
    reduce_only: true,
  }),
  logEntry('unwind_outcome', {
    result: 'below_minimum',
    exchange: 'paradex',
    side: 'sell',
    requested_size: '0.0004',
    filled_size: '0',
    avg_price: null,
    order_id: null,
    client_order_id: null,
    fee: null,
    fee_asset: null,
    reason: 'under the venue minimum',
  }),
];

/** As Postgres gives jsonb back: a copy through JSON. */
const stored = (data: unknown): unknown => JSON.parse(JSON.stringify(data));

describe('the execution log decoders', () => {
  it.each(WRITTEN.map((entry) => [entry.eventType, entry]))(
    '%s: what the worker writes decodes to itself',
    (_type, entry) => {
      expect(decodeLogEntry(entry.eventType, stored(entry.data))).toEqual(entry);
    },
  );

  it('reads older entries as they were written: no fee, no liquidity, no residuals', () => {
    const old = { ...(WRITTEN[0]!.data as unknown as LogDataOf['maker_fill']) };
    delete (old as Partial<typeof old>).fee;
    delete (old as Partial<typeof old>).fee_asset;
    delete (old as Partial<typeof old>).liquidity;
    expect(decodeLogData('maker_fill', old)).toMatchObject({
      fee: null,
      fee_asset: null,
      liquidity: 'maker',
    });
    expect(decodeLogData('chunk_completed', { filled_size: '1', reason: 'canceled' })).toEqual({
      filled_size: '1',
      reason: 'canceled',
      residual_unhedged: '0',
      residual_unwound: '0',
    });
  });

  it.each([
    ['a size that is no decimal', 'maker_fill', { size: 'lots' }, /size must be a decimal/],
    ['a number for a decimal', 'hedge_filled', { price: 49995 }, /price must be a string/],
    ['a side of neither', 'hedge_sent', { side: 'long' }, /side must be one of/],
    ['an unknown result', 'hedge_outcome', { result: 'maybe' }, /result must be one of/],
    ['an attempt that is no integer', 'hedge_sent', { attempt: 1.5 }, /attempt must be an integer/],
    ['a missing cause', 'hedge_timeout', { cause: undefined }, /cause must be a string/],
  ] as const)('refuses %s', (_name, type, change, problem) => {
    const entry = WRITTEN.find((written) => written.eventType === type)!;
    const data = { ...(stored(entry.data) as object), ...change };
    expect(() => decodeLogData(type, data)).toThrow(MessageValidationError);
    expect(() => decodeLogData(type, data)).toThrow(problem);
  });

  it('refuses an entry type the log does not have, and data that is no object', () => {
    expect(() => decodeLogEntry('maker_fil', {})).toThrow(/unknown event type/);
    expect(() => decodeLogEntry('chunk_started', '0.1')).toThrow(/payload is not an object/);
  });

  it('names a data field in SQL only as the schema has it', () => {
    expect(logFieldSql('maker_fill', 'fill_id')).toBe("e.data->>'fill_id'");
    expect(logFieldSql('unwind_outcome', 'filled_size', 'x')).toBe("x.data->>'filled_size'");
    // A name the types let through (a cast) but SQL must not quote.
    const injected = "size'; DROP TABLE trades; --" as 'size';
    expect(() => logFieldSql('hedge_filled', injected)).toThrow(/not a field SQL may name/);
  });

  it('decodes a markout at one of its horizons, and refuses another horizon', () => {
    const data = { fill_id: 'f1', horizon_s: 10, mid: '100.5', bps: '-2.5' };
    expect(decodeLogEntry('markout', data)).toEqual({ eventType: 'markout', data });
    expect(() => decodeLogEntry('markout', { ...data, horizon_s: 5 })).toThrow(
      /horizon_s must be one of 1, 10, 60/,
    );
  });

  it('decodes a quoting spell, and refuses one whose counts are not integers', () => {
    const data = {
      exchange: 'paradex',
      side: 'buy',
      from_ms: 1_000,
      until_ms: 61_000,
      quoted_ms: 58_250,
      placed: 12,
      replaced: 3,
      canceled: 8,
    };
    expect(decodeLogEntry('quoting', data)).toEqual({ eventType: 'quoting', data });
    expect(() => decodeLogEntry('quoting', { ...data, placed: 1.5 })).toThrow(/placed/);
  });

  it("reads a hedge_sent's arrival mid when written, null when the book was stale", () => {
    const sent = {
      exchange: 'aster',
      side: 'sell',
      size: '0.1',
      price: '64990',
      client_order_id: 'h-1',
      attempt: 1,
      cause: 'f-1',
    };
    expect(decodeLogEntry('hedge_sent', sent).data).not.toHaveProperty('arrival_mid');
    expect(decodeLogEntry('hedge_sent', { ...sent, arrival_mid: '65000.5' }).data).toMatchObject({
      arrival_mid: '65000.5',
    });
    expect(decodeLogEntry('hedge_sent', { ...sent, arrival_mid: null }).data).toMatchObject({
      arrival_mid: null,
    });
    expect(() => decodeLogEntry('hedge_sent', { ...sent, arrival_mid: 'x' })).toThrow(
      /arrival_mid/,
    );
  });

  it("reads a chunk_started's spread at start when written", () => {
    const started = { target_size: '0.01', size_type: 'base' };
    expect(decodeLogEntry('chunk_started', started).data).not.toHaveProperty('spread_at_start');
    expect(
      decodeLogEntry('chunk_started', { ...started, spread_at_start: '-1.5' }).data,
    ).toMatchObject({ spread_at_start: '-1.5' });
    expect(() => decodeLogEntry('chunk_started', { ...started, spread_at_start: 1.5 })).toThrow(
      /spread_at_start/,
    );
  });
});
