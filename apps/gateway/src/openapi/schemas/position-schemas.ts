import { decimal, EXCHANGE, object, text, timestamp, type Schema } from './schema-helpers';

const NULLABLE = (schema: Schema, note: string): Schema => ({
  oneOf: [schema, { type: 'null' }],
  description: note,
});
const SIGNED = (what: string): Schema => decimal(`${what}, signed: long > 0, short < 0`);

/** GET /api/v1/positions: the venues' positions beside what the service's fills imply. */
export const POSITION_SCHEMAS: Record<string, Schema> = {
  Positions: object(
    {
      accounts: {
        type: 'array',
        description: 'every venue account (wallet, exchange) of the caller that was read',
        items: { $ref: '#/components/schemas/PositionAccount' },
      },
      positions: {
        type: 'array',
        description: 'per wallet and market, ordered by wallet then market',
        items: { $ref: '#/components/schemas/MarketPosition' },
      },
    },
    ['accounts', 'positions'],
    { additionalProperties: false },
  ),
  PositionAccount: object(
    {
      wallet: text('wallet address (lowercase)'),
      exchange: EXCHANGE,
      as_of: timestamp("when the venue's answer was read (reads are cached for 2 s)"),
      error: NULLABLE(text('why the venue could not be read'), 'null: read'),
    },
    ['wallet', 'exchange', 'as_of', 'error'],
    { additionalProperties: false },
  ),
  MarketPosition: object(
    {
      wallet: text('wallet address (lowercase)'),
      market: text('canonical market, e.g. BTC'),
      net_venue_position: NULLABLE(
        SIGNED("the venues' positions summed across venues"),
        'null: a venue could not be read',
      ),
      net_implied_position: SIGNED("what the service's fills imply, summed across venues"),
      unexplained: { type: 'boolean', description: 'a venue holds what the fills do not explain' },
      residual_unhedged: SIGNED(
        "one-sided exposure the caller's ended trades named here: the venues' residual_unhedged summed",
      ),
      venues: {
        type: 'array',
        items: { $ref: '#/components/schemas/VenuePosition' },
      },
    },
    [
      'wallet',
      'market',
      'net_venue_position',
      'net_implied_position',
      'unexplained',
      'residual_unhedged',
      'venues',
    ],
    { additionalProperties: false },
  ),
  VenuePosition: object(
    {
      exchange: EXCHANGE,
      venue_position: NULLABLE(SIGNED('the position as the venue reports it'), 'null: unreadable'),
      side: NULLABLE(
        text("the venue's side", { enum: ['long', 'short', 'flat'] }),
        'null: unreadable',
      ),
      entry_price: NULLABLE(decimal("the venue's entry price"), 'null: flat or unreadable'),
      implied_position: SIGNED(
        "the sum of the service's maker_fill, hedge_filled and unwind_outcome entries",
      ),
      difference: NULLABLE(SIGNED('venue_position - implied_position'), 'null: unreadable'),
      unexplained: NULLABLE(
        { type: 'boolean' },
        'true: the venue position is not what the fills imply (difference); null: unreadable',
      ),
      residual_unhedged: SIGNED(
        "what the caller's ended trades left one-sided on this venue: maker fills never hedged (below the hedge venue's minimum) that the unwind did not take back (their residual_unhedged less residual_unwound); part of implied_position",
      ),
      residual_trade_ids: {
        type: 'array',
        items: { type: 'string', format: 'uuid' },
        description: 'the trades that left residual_unhedged here, oldest first',
      },
      as_of: timestamp("when the venue's answer was read"),
      error: NULLABLE(text('why the venue could not be read'), 'null: read'),
    },
    [
      'exchange',
      'venue_position',
      'side',
      'entry_price',
      'implied_position',
      'difference',
      'unexplained',
      'residual_unhedged',
      'residual_trade_ids',
      'as_of',
      'error',
    ],
    { additionalProperties: false },
  ),
};
