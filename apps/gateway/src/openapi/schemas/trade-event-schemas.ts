import type { Schema } from './schema-helpers';
import { ref, text, decimal, timestamp, object, EXCHANGE, SIDE } from './schema-helpers';

/** What a fill cost, as the venue reported it (issue 34); absent on entries logged before. */
const FILL_COST: Record<string, Schema> = {
  fee: {
    ...decimal('fee paid (negative for a rebate); null when the venue reported none'),
    type: ['string', 'null'],
  },
  fee_asset: {
    type: ['string', 'null'],
    description: "the fee's asset: the quote asset of the venue market; null when unknown",
  },
  liquidity: text('whether the fill made or took liquidity', { enum: ['maker', 'taker'] }),
};

/** One schema per execution-log entry type: `data` as decisions section 6 gives it. */
const EVENT_DATA: Record<string, Schema> = {
  maker_fill: object(
    {
      exchange: EXCHANGE,
      market: text('the venue symbol'),
      side: SIDE,
      price: decimal('fill price'),
      size: decimal('fill size'),
      order_id: text('venue order id'),
      client_order_id: text('our deterministic client order id'),
      fully_filled: { type: 'boolean' },
      timestamp_ms: { type: 'integer' },
      fill_id: text('venue fill id'),
      ...FILL_COST,
    },
    [
      'exchange',
      'market',
      'side',
      'price',
      'size',
      'order_id',
      'client_order_id',
      'fully_filled',
      'timestamp_ms',
    ],
  ),
  hedge_sent: object(
    {
      exchange: EXCHANGE,
      side: SIDE,
      size: decimal('hedge size'),
      price: decimal('the IOC limit'),
      client_order_id: text('our deterministic client order id'),
      attempt: { type: 'integer' },
      cause: text('the maker fill (or recovery) the hedge covers'),
      deadline_extended_ms: {
        type: 'integer',
        description:
          "present on a retry after an attempt whose answer was lost and whose fate the venue could tell only after hedge_timeout_ms (its request's bound there): how far past the timeout the hedge may run",
      },
      arrival_mid: {
        ...decimal(
          "the hedge venue's mid when the IOC went, from the book the worker held: the arrival price hedge slippage is also judged against; null when that book was stale; absent from entries logged before it was kept",
        ),
        type: ['string', 'null'],
      },
    },
    ['exchange', 'side', 'size'],
  ),
  hedge_filled: object(
    {
      exchange: EXCHANGE,
      side: SIDE,
      price: decimal('average fill price'),
      size: decimal('filled size'),
      order_id: text('venue order id'),
      timestamp_ms: { type: 'integer' },
      client_order_id: text('our deterministic client order id'),
      ...FILL_COST,
    },
    ['exchange', 'side', 'price', 'size', 'order_id', 'timestamp_ms'],
  ),
  hedge_outcome: object(
    {
      result: text('final result', { enum: ['filled', 'partial', 'rejected', 'timeout'] }),
      exchange: EXCHANGE,
      side: SIDE,
      requested_size: decimal('size the maker fill required'),
      filled_size: decimal('size hedged'),
      avg_price: { type: ['string', 'null'], description: 'average hedge price' },
      attempts: { type: 'integer' },
      slippage_bps: { type: ['string', 'null'], description: 'decimal string' },
      spread_achieved: { type: ['string', 'null'], description: 'decimal string' },
      guard_fill_class: { enum: ['after_trigger', 'adverse', null] },
      cause: text('the maker fill (or recovery) the hedge covers'),
      settled_from: text(
        "present when an attempt's fate was still unknown past the hedge timeout: what it filled is what the venue's fills of its client order id showed",
        { enum: ['fills'] },
      ),
      venue_position: {
        type: ['string', 'null'],
        description:
          "with settled_from: the hedge account's position in the market as the venue reported it then (signed decimal, short negative; null when unread)",
      },
    },
    [
      'result',
      'exchange',
      'side',
      'requested_size',
      'filled_size',
      'avg_price',
      'attempts',
      'slippage_bps',
      'spread_achieved',
      'guard_fill_class',
    ],
  ),
  hedge_timeout: object(
    {
      exchange: EXCHANGE,
      order_id: { type: ['string', 'null'] },
      waited_ms: { type: 'integer' },
      unhedged_size: decimal(
        'size not confirmed hedged when the timeout passed (an IOC still at the venue may yet fill; the hedge_outcome of the same cause says what did)',
      ),
      cause: text('the maker fill (or recovery) of the hedge that timed out'),
    },
    ['exchange', 'order_id', 'waited_ms', 'unhedged_size'],
  ),
  chunk_started: object(
    {
      target_size: decimal('target at start'),
      size_type: text('unit of sizes', { enum: ['base', 'notional'] }),
      spread_at_start: {
        ...decimal(
          "the spread a maker order at the maker venue's touch would have captured against the hedge reference as the trade went active, in the trade's spread_type units; null when a book was not fresh; absent from entries logged before it was kept",
        ),
        type: ['string', 'null'],
      },
    },
    ['target_size', 'size_type'],
  ),
  chunk_completed: object(
    {
      filled_size: decimal('filled at the end'),
      reason: text('why execution ended', { enum: ['target_reached', 'canceled', 'failed'] }),
      residual_unhedged: decimal(
        "maker fills never hedged: below the hedge venue's lot or minimums (on a failed trade, what its hedge left); base units",
      ),
      residual_unwound: decimal(
        'of residual_unhedged, what the reduce-only unwind on the maker venue took back (unwind_outcome); absent on entries logged before unwinds existed',
      ),
    },
    ['filled_size', 'reason', 'residual_unhedged'],
  ),
  unwind_sent: object(
    {
      exchange: EXCHANGE,
      side: SIDE,
      size: decimal('residual_unhedged on the maker venue lot'),
      price: decimal("the IOC limit: the maker touch it takes, less the trade's max_slippage"),
      client_order_id: text('our deterministic client order id (kind `unwind`)'),
      reduce_only: { const: true },
    },
    ['exchange', 'side', 'size', 'price', 'client_order_id', 'reduce_only'],
  ),
  unwind_outcome: object(
    {
      result: text(
        'what became of residual_unhedged on the maker venue: `filled`, `partial`, `not_filled` (nothing within the limit, or the IOC never reached the venue), `rejected`, `unknown` (the venue did not tell), or, with no order sent, `below_minimum` (the maker venue min_size or min_notional refuses it), `no_price` (no maker book) or `halted` (maintenance, the kill switch or a halted venue: no order goes out)',
        {
          enum: [
            'filled',
            'partial',
            'not_filled',
            'rejected',
            'unknown',
            'below_minimum',
            'no_price',
            'halted',
          ],
        },
      ),
      exchange: EXCHANGE,
      side: SIDE,
      requested_size: decimal('residual_unhedged'),
      filled_size: decimal('size unwound'),
      avg_price: { type: ['string', 'null'], description: 'average unwind price' },
      order_id: {
        type: ['string', 'null'],
        description: 'venue order id; null when none was sent',
      },
      client_order_id: {
        type: ['string', 'null'],
        description: 'our client order id; null when none was sent',
      },
      fee: FILL_COST['fee'],
      fee_asset: FILL_COST['fee_asset'],
      reason: {
        type: ['string', 'null'],
        description: 'why not all was unwound, in words; null when all was',
      },
    },
    [
      'result',
      'exchange',
      'side',
      'requested_size',
      'filled_size',
      'avg_price',
      'order_id',
      'client_order_id',
      'reason',
    ],
  ),
  recovery_completed: object(
    {
      previous_worker_id: {
        type: ['string', 'null'],
        description:
          'the worker that held the trade before: the one that crashed, or the one that handed it over',
      },
      open_orders_canceled: { type: 'integer' },
      fills_reconciled: { type: 'integer' },
      rehedged_size: decimal('size hedged while reconciling'),
      cause: text(
        'why the trade changed workers: `handover` when its worker shut down gracefully and handed it over (nothing to reconcile: open_orders_canceled 0, fills_reconciled 0, rehedged_size "0"); absent after a crash (its lease expired and the trade was reconciled with the venues)',
        { enum: ['handover'] },
      ),
    },
    ['previous_worker_id', 'open_orders_canceled', 'fills_reconciled', 'rehedged_size'],
  ),
  fast_move_guard: object(
    {
      move: { type: 'number', description: 'bps' },
      threshold: { type: 'number', description: 'bps' },
      references: object(
        {
          from: decimal('hedge reference at the start of the window'),
          to: decimal('hedge reference now'),
          window_ms: { type: 'integer' },
        },
        ['from', 'to', 'window_ms'],
      ),
      action: text('what the guard did', { enum: ['cancel_and_hold', 'shadow'] }),
    },
    ['move', 'threshold', 'references', 'action'],
  ),
  markout: object(
    {
      fill_id: text('the maker fill it marks out (its maker_fill entry)'),
      horizon_s: { type: 'integer', enum: [1, 10, 60], description: 'seconds after the fill' },
      mid: decimal("the maker venue's mid then, from the book the worker held"),
      bps: decimal(
        'the mid against the fill price in bps, positive when good for the trader (a maker buy followed by a higher mid); a horizon nobody held a book at is not logged',
      ),
    },
    ['fill_id', 'horizon_s', 'mid', 'bps'],
  ),
  quoting: object(
    {
      exchange: EXCHANGE,
      side: SIDE,
      from_ms: { type: 'integer', description: 'epoch ms: where the spell starts' },
      until_ms: { type: 'integer', description: 'epoch ms: where the spell ends' },
      quoted_ms: {
        type: 'integer',
        minimum: 0,
        description:
          'how long a maker order was out in the spell, from its placement until it was known closed',
      },
      placed: {
        type: 'integer',
        minimum: 0,
        description: "maker orders placed (a replace's new order included)",
      },
      replaced: {
        type: 'integer',
        minimum: 0,
        description: 'replaces (one request moving an order)',
      },
      canceled: { type: 'integer', minimum: 0, description: 'cancels sent' },
    },
    ['exchange', 'side', 'from_ms', 'until_ms', 'quoted_ms', 'placed', 'replaced', 'canceled'],
  ),
};

const eventSchemaName = (eventType: string): string =>
  `TradeEvent_${eventType.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase())}`;

const tradeEvents = Object.fromEntries(
  Object.entries(EVENT_DATA).map(([eventType, data]) => [
    eventSchemaName(eventType),
    object(
      {
        sequence: { type: 'integer', minimum: 1, description: 'unique per trade, increasing' },
        event_type: { const: eventType },
        data,
        worker_id: text('the worker that recorded it'),
        created_at: timestamp('when it was recorded'),
      },
      ['sequence', 'event_type', 'data', 'worker_id', 'created_at'],
      { additionalProperties: false },
    ),
  ]),
);

/** The execution log's entries: one schema per type, their union, a page of them. */
export const TRADE_EVENT_SCHEMAS: Record<string, Schema> = {
  ...tradeEvents,
  TradeEvent: {
    description: 'an execution log entry; `data` depends on `event_type`',
    oneOf: Object.keys(EVENT_DATA).map((eventType) => ref(eventSchemaName(eventType))),
    discriminator: {
      propertyName: 'event_type',
      mapping: Object.fromEntries(
        Object.keys(EVENT_DATA).map((eventType) => [
          eventType,
          `#/components/schemas/${eventSchemaName(eventType)}`,
        ]),
      ),
    },
  },
  TradeEvents: object(
    {
      trade_id: text('the trade', { format: 'uuid' }),
      events: { type: 'array', items: ref('TradeEvent') },
      has_more: {
        type: 'boolean',
        description:
          'entries with a higher sequence exist beyond this page (`limit`, at most 5000): read on from `next_after_sequence`',
      },
      next_after_sequence: {
        type: 'integer',
        minimum: 1,
        description:
          'present only when `has_more`: the sequence of the last entry of this page, to pass as `after_sequence`',
      },
    },
    ['trade_id', 'events', 'has_more'],
    { additionalProperties: false },
  ),
};
