import { HEDGE_RESULTS, MARKOUT_HORIZONS_S } from '@sts/contracts';
import { MAKER_LEGS, SPREAD_TYPES } from '@sts/domain';
import { QUALITY_GROUPS } from '../../quality/quality-report';
import type { Schema } from './schema-helpers';
import { decimal, EXCHANGE, object, ref, SIDE, text, timestamp } from './schema-helpers';

const nullable = (schema: Schema): Schema => ({ ...schema, type: ['string', 'null'] });
const nullableDecimal = (description: string): Schema => nullable(decimal(description));

/** `{"1": …, "10": …, "60": …}`: one value per markout horizon, in seconds after the fill. */
const byHorizon = (value: Schema, description: string): Schema =>
  object(
    Object.fromEntries(MARKOUT_HORIZONS_S.map((horizon) => [String(horizon), value])),
    MARKOUT_HORIZONS_S.map(String),
    { additionalProperties: false, description },
  );

const MARKOUT_SIGN =
  'bps of the fill price, positive when good for the trader (after a maker buy the mid rose, after a sell it fell)';

/** GET /trades/{id}/quality and GET /quality (issue 60; decisions section 8). */
export const QUALITY_SCHEMAS: Record<string, Schema> = {
  HedgeQuality: object(
    {
      result: text('how the hedge ended', { enum: [...HEDGE_RESULTS] }),
      exchange: EXCHANGE,
      side: SIDE,
      requested_size: decimal('the size the hedge asked for'),
      filled_size: decimal('the size it filled'),
      avg_price: nullableDecimal('its volume-weighted fill price; null when nothing filled'),
      slippage_bps: nullableDecimal(
        "against the decision: the hedge venue's price the worker held when the maker filled, in bps of it, positive when good for the trader (the log's hedge_outcome slippage_bps negated); null when nothing filled",
      ),
      arrival_mid: nullableDecimal(
        "the hedge venue's mid when the hedge's first IOC went, from the book the worker held; null when that book was stale, or the hedge was logged before arrival mids were",
      ),
      arrival_slippage_bps: nullableDecimal(
        'avg_price against arrival_mid, in bps of it, positive when good for the trader (a hedge that crosses the spread pays about half of it here); null when either is null',
      ),
    },
    [
      'result',
      'exchange',
      'side',
      'requested_size',
      'filled_size',
      'avg_price',
      'slippage_bps',
      'arrival_mid',
      'arrival_slippage_bps',
    ],
    { additionalProperties: false },
  ),
  Quoting: object(
    {
      quoted_ms: {
        type: 'integer',
        minimum: 0,
        description:
          'how long a maker order was out, from its placement until it was known closed (an order in flight or in doubt counts), over the logged quoting spells',
      },
      orders_placed: {
        type: 'integer',
        minimum: 0,
        description: "maker orders placed (a replace's new order included)",
      },
      orders_replaced: { type: 'integer', minimum: 0, description: 'orders moved in one request' },
      cancels: { type: 'integer', minimum: 0, description: 'cancels sent' },
      requotes: {
        type: 'integer',
        minimum: 0,
        description: 'orders_replaced + cancels: every order moved or taken down',
      },
      fills_per_quote_hour: nullableDecimal('maker fills per hour quoted; null: nothing quoted'),
      requotes_per_fill: nullableDecimal('requotes / maker fills; null: no fill'),
      cancels_per_fill: nullableDecimal('cancels / maker fills; null: no fill'),
    },
    [
      'quoted_ms',
      'orders_placed',
      'orders_replaced',
      'cancels',
      'requotes',
      'fills_per_quote_hour',
      'requotes_per_fill',
      'cancels_per_fill',
    ],
    {
      additionalProperties: false,
      description:
        "the maker quoting from the execution log's quoting spells, logged with each maker fill, at a handover and at the end: what an owner did after its last spell before it crashed is not counted",
    },
  ),
  FillQuality: object(
    {
      fill_id: text("the venue's fill id"),
      exchange: EXCHANGE,
      side: SIDE,
      price: decimal('fill price'),
      size: decimal('fill size'),
      timestamp: timestamp("when it filled, by the venue's clock"),
      markout_bps: byHorizon(
        nullableDecimal(MARKOUT_SIGN),
        "the maker venue's mid that many seconds after the fill against its price; null: not sampled (no owner held the book then)",
      ),
      markout_mid: byHorizon(
        nullableDecimal("the maker venue's mid"),
        'the mids the markouts were taken at; null: not sampled',
      ),
      hedges: {
        type: 'array',
        items: ref('HedgeQuality'),
        description:
          'the outcomes of the hedges this fill caused, in log order (empty: hedged with a later fill, or not yet)',
      },
    },
    [
      'fill_id',
      'exchange',
      'side',
      'price',
      'size',
      'timestamp',
      'markout_bps',
      'markout_mid',
      'hedges',
    ],
    { additionalProperties: false },
  ),
  TradeQuality: object(
    {
      trade_id: text('trade id', { format: 'uuid' }),
      status: ref('TradeStatus'),
      market: text('canonical market'),
      maker_leg: text('the leg that rests as maker', { enum: [...MAKER_LEGS] }),
      spread_type: text('the unit of target_spread, realised_spread and realised_vs_target', {
        enum: [...SPREAD_TYPES],
      }),
      target_spread: decimal('the trade’s target spread, in spread_type units'),
      realised_spread: nullableDecimal(
        'as costs.realised_spread: sell average minus buy average in spread_type units; null until both legs filled',
      ),
      realised_vs_target: nullableDecimal(
        'realised_spread - target_spread in spread_type units (implementation shortfall, negated): positive when the trade captured more spread than its target; null until both legs filled',
      ),
      spread_at_start: nullableDecimal(
        "the spread a maker order at the maker venue's touch would have captured against the hedge reference as the trade went active, in spread_type units: the market the trade started in; null when a book was not fresh then (or the trade started before it was logged)",
      ),
      realised_vs_start: nullableDecimal(
        'realised_spread - spread_at_start in spread_type units: positive when waiting for the target captured more than the market offered at the start; null when either is null',
      ),
      created_at: timestamp('when the trade was created'),
      first_fill_at: nullable(
        timestamp("its first maker fill, by the venue's clock; null: none yet"),
      ),
      time_to_first_fill_ms: {
        type: ['integer', 'null'],
        description: 'first_fill_at - created_at, in ms; null: no fill yet',
      },
      ended_at: nullable(timestamp('when the trade ended (completed_at); null while running')),
      time_to_end_ms: {
        type: ['integer', 'null'],
        description: 'ended_at - created_at, in ms; null while running',
      },
      fills_count: { type: 'integer', minimum: 0, description: 'maker fills, each counted once' },
      quoting: ref('Quoting'),
      quoted_share: nullableDecimal(
        'quoting.quoted_ms over ended_at - created_at (4 decimal places); null while running',
      ),
      mean_markout_bps: byHorizon(
        nullableDecimal(`the mean over the fills sampled at that horizon, ${MARKOUT_SIGN}`),
        'per horizon; null: no fill sampled at it',
      ),
      fills: { type: 'array', items: ref('FillQuality'), description: 'in log order' },
    },
    [
      'trade_id',
      'status',
      'market',
      'maker_leg',
      'spread_type',
      'target_spread',
      'realised_spread',
      'realised_vs_target',
      'spread_at_start',
      'realised_vs_start',
      'created_at',
      'first_fill_at',
      'time_to_first_fill_ms',
      'ended_at',
      'time_to_end_ms',
      'fills_count',
      'quoting',
      'quoted_share',
      'mean_markout_bps',
      'fills',
    ],
    { additionalProperties: false },
  ),
  QualityDistribution: object(
    {
      count: { type: 'integer', minimum: 0, description: 'observations' },
      mean: nullableDecimal('their mean (6 decimal places, half-even); null: none'),
      p5: nullableDecimal('5th percentile, nearest rank (an observed value); null: none'),
      p50: nullableDecimal('median, nearest rank; null: none'),
      p95: nullableDecimal('95th percentile, nearest rank; null: none'),
    },
    ['count', 'mean', 'p5', 'p50', 'p95'],
    {
      additionalProperties: false,
      description:
        'bps, positive when good for the trader. Percentiles by nearest rank: the observed value of rank ceil(p/100 x count) in ascending order',
    },
  ),
  QualityGroup: object(
    {
      group: text("the maker venue, the trade's market, or the maker side"),
      fills: { type: 'integer', minimum: 0, description: 'maker fills of the group in the window' },
      markout_bps: byHorizon(
        ref('QualityDistribution'),
        'markouts per horizon; a fill not sampled at a horizon is not counted there',
      ),
      hedge_slippage_bps: ref('QualityDistribution'),
      hedge_arrival_slippage_bps: ref('QualityDistribution'),
      time_to_first_fill_ms: ref('QualityDistribution'),
      quoting: ref('Quoting'),
    },
    [
      'group',
      'fills',
      'markout_bps',
      'hedge_slippage_bps',
      'hedge_arrival_slippage_bps',
      'time_to_first_fill_ms',
      'quoting',
    ],
    {
      additionalProperties: false,
      description:
        "hedge_slippage_bps: the slippage against the decision of the hedges these fills caused, one observation per hedge outcome that filled (unweighted by size), positive when good for the trader; hedge_arrival_slippage_bps: the same against the hedge venue's mid when each hedge's first IOC went; time_to_first_fill_ms: from a trade's creation to its first maker fill, for the trades whose first fill is in the window (in ms, not bps); quoting: the quoting spells that ended in the window (trades that quoted and never filled included) against the group's fills",
    },
  ),
  QualityReport: object(
    {
      from: timestamp('start of the window (inclusive)'),
      to: timestamp('end of the window (exclusive)'),
      group_by: text('how fills are grouped', { enum: [...QUALITY_GROUPS] }),
      groups: {
        type: 'array',
        items: ref('QualityGroup'),
        description: 'groups with a maker fill or a quoting spell in the window, by name',
      },
    },
    ['from', 'to', 'group_by', 'groups'],
    { additionalProperties: false },
  ),
};
