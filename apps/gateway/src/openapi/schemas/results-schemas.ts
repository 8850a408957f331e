import { RESULT_GROUPS } from '../../results/results-report';
import type { Schema } from './schema-helpers';
import { decimal, EXCHANGE, object, ref, text, timestamp } from './schema-helpers';

const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });

const SUMS: Record<string, Schema> = {
  trades: count('trades with a fill, a realised spread or funding in the row'),
  fills: count('fills of either leg (and unwinds of residuals) in the row'),
  volume: decimal('USD: price times size of every fill, both legs'),
  realised_spread: decimal(
    "USD, before fees: each trade's buys and sells paired first in, first out across its venues (an unwind pairs with the fills it closes), each pair realising size times (sell - buy) when its later fill came; by venue, each of the pair's venues carries half",
  ),
  fees: decimal(
    'USD the venues charged on the fills (negative for a net rebate); fees in a non-USD asset are left out (unpriced_fees)',
  ),
  funding_paid: decimal("USD of funding the trades' positions paid (a positive magnitude)"),
  funding_received: decimal("USD of funding the trades' positions received"),
  net: decimal('realised_spread - fees - funding_paid + funding_received'),
};
const SUM_FIELDS = Object.keys(SUMS);

/** GET /results (issue 58; decisions section 8). */
export const RESULTS_SCHEMAS: Record<string, Schema> = {
  ResultSums: object(SUMS, SUM_FIELDS, { additionalProperties: false }),
  ResultRow: object(
    {
      key: text(
        'day: the UTC date; week: the UTC date of the ISO week’s Monday; market: the trade’s market; venue: the exchange id',
      ),
      ...SUMS,
    },
    ['key', ...SUM_FIELDS],
    { additionalProperties: false },
  ),
  FundingUnread: object(
    {
      exchange: EXCHANGE,
      wallet: text('the venue account (lower-case address)'),
      error: text('why its funding history could not be read now'),
    },
    ['exchange', 'wallet', 'error'],
    { additionalProperties: false },
  ),
  Results: object(
    {
      from: timestamp('start of the window (inclusive)'),
      to: timestamp('end of the window (exclusive)'),
      group_by: text('how the window is grouped', { enum: [...RESULT_GROUPS] }),
      currency: text('the currency of every amount: stablecoins count one for one', {
        enum: ['USD'],
      }),
      rows: {
        type: 'array',
        items: ref('ResultRow'),
        description: 'groups with activity in the window, by key',
      },
      totals: ref('ResultSums'),
      funding_unread: {
        type: 'array',
        items: ref('FundingUnread'),
        description:
          'accounts whose funding history could not be read now; the funding read from them before still counts',
      },
      unpriced_fees: count(
        'fills whose fee was not in a USD asset or not reported, left out of fees',
      ),
    },
    ['from', 'to', 'group_by', 'currency', 'rows', 'totals', 'funding_unread', 'unpriced_fees'],
    { additionalProperties: false },
  ),
};
