import type { Schema } from './schema-helpers';
import { ref, text, decimal, timestamp, object, EXCHANGE } from './schema-helpers';

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

/** Markets, a market's spread, maintenance flags. */
export const MARKET_SCHEMAS: Record<string, Schema> = {
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
  Exchange: object(
    {
      exchange: text('exchange id', {
        enum: ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'],
      }),
      mode: text('`paper`: the simulator, no real money; `live`: the venue itself', {
        enum: ['paper', 'live'],
      }),
      maker_cap: {
        type: 'integer',
        minimum: 1,
        description: 'concurrent maker trades per wallet and cap group',
      },
      cap_group: text('venues of one group share one maker-cap counter'),
      shared_account_limit: {
        type: 'boolean',
        description: "a trade's hedge on this venue draws on the same account limit",
      },
      hedge_timeout_ms: {
        type: 'integer',
        minimum: 1,
        description: 'how long a hedge may take to fill',
      },
      maintenance: { type: 'boolean', description: "the venue's own maintenance flag" },
      trading_halted: {
        type: 'boolean',
        description:
          'the venue or the system in maintenance, or the kill switch on: no trade starts on it now',
      },
    },
    [
      'exchange',
      'mode',
      'maker_cap',
      'cap_group',
      'shared_account_limit',
      'hedge_timeout_ms',
      'maintenance',
      'trading_halted',
    ],
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
};
