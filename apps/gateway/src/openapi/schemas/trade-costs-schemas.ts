import type { Schema } from './schema-helpers';
import { decimal, object, ref } from './schema-helpers';

const nullableDecimal = (description: string): Schema => ({
  ...decimal(description),
  type: ['string', 'null'],
});

const legCosts = object(
  {
    filled_size: decimal("the leg's filled size, from the venue's fills"),
    avg_price: nullableDecimal('volume-weighted average fill price; null before a fill'),
    fees: {
      type: 'array',
      description:
        'fees the venue reported, summed per asset (negative for a rebate); the asset is the quote of the venue market, null if unknown',
      items: object(
        { asset: { type: ['string', 'null'] }, amount: decimal('fee total in that asset') },
        ['asset', 'amount'],
        { additionalProperties: false },
      ),
    },
    fills: {
      type: 'integer',
      description: 'fill entries of the leg: maker fills, or hedge orders that filled',
    },
    fills_without_fee: {
      type: 'integer',
      description: 'fills the venue reported no fee for (fees is then short of the truth)',
    },
  },
  ['filled_size', 'avg_price', 'fees', 'fills', 'fills_without_fee'],
  { additionalProperties: false },
);

/** `costs` of a Trade (issue 34): what the venues' fills came to, from the execution log. */
export const TRADE_COSTS_SCHEMAS: Record<string, Schema> = {
  LegCosts: legCosts,
  TradeCosts: object(
    {
      long: ref('LegCosts'),
      short: ref('LegCosts'),
      realised_spread: nullableDecimal(
        'sell average minus buy average in spread_type units (percentage and bps of the hedge average); null until both legs filled',
      ),
      realised_spread_after_fees: nullableDecimal(
        "realised_spread less each leg's fees per unit of its filled size; null when a fee is unreported or not in the quote asset",
      ),
      avg_hedge_slippage_bps: nullableDecimal(
        "the hedges' slippage against their reference, weighted by the size each filled; null before a hedge filled",
      ),
    },
    ['long', 'short', 'realised_spread', 'realised_spread_after_fees', 'avg_hedge_slippage_bps'],
    {
      additionalProperties: false,
      description:
        "what the venues' own fills came to, per leg and for the whole trade, from the execution log",
    },
  ),
};
