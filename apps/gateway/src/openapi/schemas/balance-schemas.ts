import { decimal, EXCHANGE, object, text, timestamp, type Schema } from './schema-helpers';

const NULLABLE = (schema: Schema, note: string): Schema => ({
  oneOf: [schema, { type: 'null' }],
  description: note,
});
const AMOUNT = (what: string): Schema => NULLABLE(decimal(`${what}, in asset`), 'null: unreadable');

/** GET /api/v1/balances: each venue account's margin-asset balance, equity and margin. */
export const BALANCE_SCHEMAS: Record<string, Schema> = {
  Balances: object(
    {
      accounts: {
        type: 'array',
        description:
          'one entry per margin asset of each venue account of the caller (ordered by wallet, exchange, asset); one entry with error for an account that could not be read',
        items: { $ref: '#/components/schemas/AccountBalance' },
      },
      totals: { $ref: '#/components/schemas/BalanceTotals' },
    },
    ['accounts', 'totals'],
    { additionalProperties: false },
  ),
  AccountBalance: object(
    {
      exchange: EXCHANGE,
      wallet: text('wallet address (lowercase)'),
      mode: text('the venue runs on paper (the simulator) or live', { enum: ['paper', 'live'] }),
      asset: NULLABLE(
        text('the margin asset, as the venue names it (USDC, USDT, USD1, USD)'),
        'null: unreadable',
      ),
      balance: AMOUNT(
        'the wallet balance: deposits, realised PnL, fees and funding, without the open positions’ PnL',
      ),
      unrealised_pnl: AMOUNT("the open positions' PnL, of the markets margined in this asset"),
      equity: AMOUNT('balance + unrealised_pnl'),
      available_margin: AMOUNT('what the venue says new orders and positions can still use'),
      margin_used: NULLABLE(
        decimal('margin held by positions and open orders, in asset'),
        'null: unreadable, or the venue does not say',
      ),
      in_totals: {
        type: 'boolean',
        description:
          'counted in totals: read, and margined in a USD stablecoin (USD, USDC, USDT, USD1, each 1:1); false: left out',
      },
      as_of: timestamp(
        'when the venue was read (the older of its balances and positions reads, each cached for 2 s)',
      ),
      error: NULLABLE(text('why the account could not be read'), 'null: read'),
    },
    [
      'exchange',
      'wallet',
      'mode',
      'asset',
      'balance',
      'unrealised_pnl',
      'equity',
      'available_margin',
      'margin_used',
      'in_totals',
      'as_of',
      'error',
    ],
    { additionalProperties: false },
  ),
  BalanceTotals: object(
    {
      equity_usd: decimal('the equity of every entry in_totals, in USD (stablecoins 1:1)'),
      available_margin_usd: decimal('the available margin of every entry in_totals, in USD'),
      complete: {
        type: 'boolean',
        description:
          'false: some entry is left out (unreadable, or margined in an asset that is not a USD stablecoin), so the totals understate',
      },
    },
    ['equity_usd', 'available_margin_usd', 'complete'],
    { additionalProperties: false },
  ),
};
