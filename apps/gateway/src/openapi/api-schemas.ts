import { ERROR_CODES } from '@sts/platform';

/**
 * The bodies the gateway answers with, as JSON Schema 2020-12 (OpenAPI 3.1).
 * Request bodies are described by the DTOs' decorators; what leaves the
 * gateway is described here, next to nothing else, and every HTTP spec checks
 * the answers it receives against it (`@sts/testing` openApiConformance).
 */
type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const text = (description: string, extra: Schema = {}): Schema => ({
  type: 'string',
  description,
  ...extra,
});
const decimal = (description: string): Schema =>
  text(description, { pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$', examples: ['0.5'] });
const timestamp = (description: string): Schema => text(description, { format: 'date-time' });
const object = (properties: Record<string, Schema>, required: string[], extra: Schema = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

const EXCHANGE = text('exchange (venue) id', {
  enum: ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'],
});
const SIDE = text('order side', { enum: ['buy', 'sell'] });

export const TRADE_STATUSES = [
  'pending',
  'validating',
  'active',
  'paused',
  'recovering',
  'completed',
  'canceled',
  'rejected',
  'failed',
] as const;

const fastMoveGuardStats = object(
  {
    mode: text('guard mode', { enum: ['shadow', 'on', 'off'] }),
    triggers: { type: 'integer' },
    holds: { type: 'integer' },
    hold_ms_total: { type: 'integer' },
    orders_canceled: { type: 'integer' },
    fills_after_trigger: { type: 'integer' },
    adverse_fills: { type: 'integer' },
    max_move_bps: { type: 'number' },
  },
  [],
  { description: 'written on the trade when it ends (decisions section 6)' },
);

const trade = object(
  {
    trade_id: text('assigned at creation', { format: 'uuid' }),
    user_id: text('owner'),
    market: text('canonical market symbol', { examples: ['BTC'] }),
    long_exchange: EXCHANGE,
    long_wallet: text('wallet address of the long leg'),
    short_exchange: EXCHANGE,
    short_wallet: text('wallet address of the short leg'),
    target_spread: decimal('in units of spread_type'),
    spread_condition: text('how the spread compares with target_spread', {
      enum: ['gte', 'gt', 'lte', 'lt', 'eq'],
    }),
    target_size: decimal('total size to fill, in size_type units'),
    filled_size: decimal('filled so far, in size_type units'),
    execution_type: text('execution type', { enum: ['maker_taker'] }),
    maker_leg: text('the leg quoted as a resting order', { enum: ['long', 'short'] }),
    max_slippage: decimal('fraction of price the hedge may pay (0.001 = 0.1 %)'),
    status: ref('TradeStatus'),
    rate_budget: { type: 'integer', description: 'requests per second on the maker exchange' },
    hedge_rate_budget: {
      type: 'integer',
      description: 'present only when the hedge exchange has a shared per-account limit',
    },
    created_at: timestamp('creation time'),
    updated_at: timestamp('last change'),
    completed_at: { ...timestamp('set on every terminal status'), type: ['string', 'null'] },
    size_type: text('unit of sizes', { enum: ['base', 'notional'] }),
    spread_type: text('unit of spreads', { enum: ['absolute', 'percentage', 'bps', 'ticks'] }),
    failure_reason: text('empty unless rejected or failed'),
    fast_move_guard_stats: { oneOf: [ref('FastMoveGuardStats'), { type: 'null' }] },
    quote_mode: text('present for aggressive trades', { enum: ['aggressive'] }),
    worst_spread: decimal('bound of the aggressive peg'),
    fast_move_guard: text('fast-move guard mode', { enum: ['shadow', 'on', 'off'] }),
    fast_move_guard_bps: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
    fast_move_window_ms: { type: 'integer', minimum: 50, maximum: 5000 },
    fast_move_settle_ms: { type: 'integer', minimum: 50, maximum: 10000 },
  },
  [
    'trade_id',
    'user_id',
    'market',
    'long_exchange',
    'long_wallet',
    'short_exchange',
    'short_wallet',
    'target_spread',
    'spread_condition',
    'target_size',
    'filled_size',
    'execution_type',
    'maker_leg',
    'max_slippage',
    'status',
    'rate_budget',
    'created_at',
    'updated_at',
    'completed_at',
    'size_type',
    'spread_type',
    'failure_reason',
    'fast_move_guard_stats',
  ],
  { additionalProperties: false },
);

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
      unhedged_size: decimal('size left unhedged'),
    },
    ['exchange', 'order_id', 'waited_ms', 'unhedged_size'],
  ),
  chunk_started: object(
    {
      target_size: decimal('target at start'),
      size_type: text('unit of sizes', { enum: ['base', 'notional'] }),
    },
    ['target_size', 'size_type'],
  ),
  chunk_completed: object(
    {
      filled_size: decimal('filled at the end'),
      reason: text('why execution ended', { enum: ['target_reached', 'canceled', 'failed'] }),
      residual_unhedged: decimal('maker fills too small to hedge'),
    },
    ['filled_size', 'reason', 'residual_unhedged'],
  ),
  recovery_completed: object(
    {
      previous_worker_id: { type: ['string', 'null'] },
      open_orders_canceled: { type: 'integer' },
      fills_reconciled: { type: 'integer' },
      rehedged_size: decimal('size hedged while reconciling'),
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

const marketEntry = object(
  {
    symbol: text('venue-specific symbol'),
    tick_size: decimal('minimum price increment'),
    lot_size: decimal('minimum size increment'),
    min_size: decimal('minimum order size'),
    min_notional: decimal('minimum order value in USD'),
    max_leverage: { type: 'number' },
    isolated_only: { type: 'boolean' },
    funding_interval_hours: { type: 'number' },
    live_funding_rate: decimal('current funding rate'),
    live_funding_annualised: decimal('current funding rate, annualised'),
    volume_24h_usd: decimal('24 h volume in USD'),
    open_interest_usd: decimal('open interest in USD'),
  },
  ['symbol', 'tick_size', 'lot_size', 'min_size'],
  { additionalProperties: false },
);

const errorCodes = [...ERROR_CODES];

export const API_SCHEMAS: Record<string, Schema> = {
  TradeStatus: text('trade status (decisions section 3)', { enum: [...TRADE_STATUSES] }),
  Trade: trade,
  FastMoveGuardStats: fastMoveGuardStats,
  CreateTradeAccepted: object(
    {
      trade_id: text('the new trade', { format: 'uuid' }),
      status: text('always pending', { const: 'pending' }),
      rate_budget: { type: 'integer' },
      hedge_rate_budget: { type: 'integer' },
    },
    ['trade_id', 'status', 'rate_budget'],
    { additionalProperties: false },
  ),
  CreateTradeReplayed: object(
    {
      trade_id: text('the original trade', { format: 'uuid' }),
      status: ref('TradeStatus'),
      rate_budget: { type: 'integer' },
      hedge_rate_budget: { type: 'integer' },
      idempotent: { const: true },
    },
    ['trade_id', 'status', 'rate_budget', 'idempotent'],
    { additionalProperties: false },
  ),
  AmendmentSent: object(
    { status: { const: 'amendment_sent' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
  AmendmentPersisted: object(
    {
      status: { const: 'amendment_persisted' },
      trade_id: text('the trade', { format: 'uuid' }),
      warning: text('why it was not delivered at once'),
    },
    ['status', 'trade_id', 'warning'],
    { additionalProperties: false },
  ),
  TradeCanceled: object(
    { status: { const: 'canceled' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
  CancelSent: object(
    { status: { const: 'cancel_sent' }, trade_id: text('the trade', { format: 'uuid' }) },
    ['status', 'trade_id'],
    { additionalProperties: false },
  ),
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
    },
    ['trade_id', 'events'],
    { additionalProperties: false },
  ),
  MarketEntry: marketEntry,
  Market: object(
    {
      canonical: text('what is passed as `market` on create', { examples: ['BTC'] }),
      exchanges: {
        type: 'object',
        propertyNames: EXCHANGE,
        additionalProperties: ref('MarketEntry'),
      },
    },
    ['canonical', 'exchanges'],
    { additionalProperties: false },
  ),
  Markets: object({ markets: { type: 'array', items: ref('Market') } }, ['markets'], {
    additionalProperties: false,
  }),
  MarketSpread: object(
    {
      market: text('canonical market', { examples: ['BTC'] }),
      long_exchange: EXCHANGE,
      short_exchange: EXCHANGE,
      long: ref('BookTouch'),
      short: ref('BookTouch'),
      spread_type: text('unit of `spread`', {
        enum: ['absolute', 'percentage', 'bps', 'ticks'],
      }),
      spread: decimal(
        "sell price minus buy price of a maker order at the maker venue's touch (the default quote) against the hedge reference H (the touch the hedge would take), in spread_type (percentage and bps of H, ticks of the coarser tick; 10 decimals at most)",
      ),
      condition_met: {
        type: ['boolean', 'null'],
        description:
          'whether `spread` spread_condition target_spread holds now (the worker would quote); null when no target was given',
      },
      at: timestamp('when the gateway read the books'),
    },
    [
      'market',
      'long_exchange',
      'short_exchange',
      'long',
      'short',
      'spread_type',
      'spread',
      'condition_met',
      'at',
    ],
    { additionalProperties: false },
  ),
  BookTouch: object(
    {
      bid: decimal('best bid on the venue'),
      ask: decimal('best ask on the venue'),
    },
    ['bid', 'ask'],
    { additionalProperties: false },
  ),
  MaintenanceEntry: object(
    {
      exchange: text('exchange id, or `_system`', {
        enum: ['_system', 'hyperliquid', 'lighter', 'paradex', 'extended', 'aster'],
      }),
      enabled: { type: 'boolean' },
      reason: text('operator text'),
      updated_by: text('operator id; may be empty'),
      updated_at: timestamp('last change of the flag'),
    },
    ['exchange', 'enabled', 'reason', 'updated_by', 'updated_at'],
    { additionalProperties: false },
  ),
  Wallet: object(
    {
      address: text('wallet address'),
      linked_at: timestamp('when it was linked'),
      verified: { type: 'boolean' },
    },
    ['address', 'linked_at', 'verified'],
    { additionalProperties: false },
  ),
  WalletLinkChallenge: object(
    {
      address: text('the wallet to link'),
      nonce: text('single-use challenge nonce'),
      message: text('the exact text to sign (EIP-191)'),
      expires_at: timestamp('the challenge is valid 5 minutes, once'),
    },
    ['address', 'nonce', 'message', 'expires_at'],
    { additionalProperties: false },
  ),
  WalletUnlinked: object(
    { status: { const: 'unlinked' }, address: text('the wallet, lower case') },
    ['status', 'address'],
    { additionalProperties: false },
  ),
  Credential: object(
    {
      exchange: EXCHANGE,
      wallet_addr: text('wallet the credential belongs to'),
      key_preview: text('ellipsis and the last 4 characters of the public key part'),
      permissions: { const: 'trade' },
      added_at: timestamp('when it was added'),
      last_used: { ...timestamp('last decrypt for an execution'), type: ['string', 'null'] },
      status: { const: 'active' },
    },
    ['exchange', 'wallet_addr', 'key_preview', 'permissions', 'added_at', 'last_used', 'status'],
    { additionalProperties: false },
  ),
  CredentialDeleted: object(
    {
      status: { const: 'deleted' },
      exchange: EXCHANGE,
      wallet_addr: text('the wallet, lower case'),
    },
    ['status', 'exchange', 'wallet_addr'],
    { additionalProperties: false },
  ),
  Session: object(
    {
      user_id: text('the account'),
      wallet_address: text('primary wallet'),
      new_account: { type: 'boolean', description: 'true on the first sign-in' },
      expires_at: timestamp('when the JWT expires'),
      scopes: { type: 'array', items: { type: 'string' } },
    },
    ['user_id', 'wallet_address', 'new_account', 'expires_at', 'scopes'],
    { additionalProperties: false },
  ),
  ErrorCode: text('machine code (decisions section 4 and the README API notes)', {
    enum: errorCodes,
  }),
  Error: object(
    {
      error: text('human-readable text'),
      code: ref('ErrorCode'),
      reason: text(
        'operator text of a maintenance, or the dependency a 503 service_unavailable lost (postgres, nats, redis, budget_service, identity_provider, a venue)',
      ),
      exchange: text('maker_cap_exceeded, rate_budget_exhausted: the exchange'),
      cap: { type: 'integer', description: 'maker_cap_exceeded: the cap' },
      active: { type: 'integer', description: 'maker_cap_exceeded: trades counted' },
      leg: text('rate_budget_exhausted: the budget refused', { enum: ['maker', 'hedge'] }),
      limit_per_s: { type: 'integer', description: "rate_budget_exhausted: the account's limit" },
      holders: { type: 'integer', description: 'rate_budget_exhausted: trades sharing it' },
      min_trade_budget: {
        type: 'integer',
        description: 'rate_budget_exhausted: the minimum share',
      },
    },
    ['error', 'code'],
    { additionalProperties: false },
  ),
};
