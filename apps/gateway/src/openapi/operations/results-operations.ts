import type { OperationAnswers } from './answers';
import { API_KEY_OR_JWT, AT, ref } from './answers';

const sums = {
  trades: 4,
  fills: 14,
  volume: '4551.2',
  realised_spread: '2.31',
  fees: '0.91',
  funding_paid: '0.12',
  funding_received: '0.35',
  net: '1.63',
};

/** Results over time (issue 58; decisions section 8). */
export const RESULTS_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/results': {
    operationId: 'getResults',
    description:
      "The caller's results in [from, to) (ISO 8601; default the 30 days before now; a reversed or empty window, or one wider than 366 days, is 400), grouped by the UTC day, the ISO week (its Monday), the trade's market or the venue: per row the trades, fills, volume, the spread realised (each trade's buys and sells paired first in, first out), the fees, the funding the trades' positions paid and received, and the net, all in USD. Funding is read from each venue account the caller's trades filled on (the venues' funding histories, within the account's rate budget) and shared among the trades by the position each held at the settlement. Only the caller's trades are read. Scope account:read.",
    successes: [
      {
        status: 200,
        description: 'the window, its rows by key and their totals',
        schema: ref('Results'),
        example: {
          from: '2025-12-06T09:30:00.000Z',
          to: AT,
          group_by: 'market',
          currency: 'USD',
          rows: [{ key: 'BTC', ...sums }],
          totals: sums,
          funding_unread: [],
          unpriced_fees: 0,
        },
      },
    ],
    errors: API_KEY_OR_JWT,
  },
};
