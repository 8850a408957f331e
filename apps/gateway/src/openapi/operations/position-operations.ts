import type { OperationAnswers } from './answers';
import { API_KEY_OR_JWT, AT, ref, WALLET } from './answers';

/** The caller's positions on the venues (issue 34). */
export const POSITION_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/positions': {
    operationId: 'getPositions',
    description:
      "Per wallet, market and venue of the caller: the venue's own position (read with the caller's stored credential, at most once per account every 2 s; `as_of` says when), the position the service's own fills imply (its maker_fill, hedge_filled and unwind_outcome entries), the net across venues, `unexplained: true` with the difference where the venue holds what the fills do not explain, and `residual_unhedged`: what the caller's ended trades left one-sided there (maker fills below the hedge venue's minimum that the unwind on the maker venue did not take back), with the trades that left it. A venue that cannot be read answers its entries with `error`; the rest still answer. Scope account:read.",
    successes: [
      {
        status: 200,
        description: "the venues' positions beside the fills', per wallet and market",
        schema: ref('Positions'),
        example: {
          accounts: [
            { wallet: WALLET, exchange: 'hyperliquid', as_of: AT, error: null },
            { wallet: WALLET, exchange: 'paradex', as_of: AT, error: null },
          ],
          positions: [
            {
              wallet: WALLET,
              market: 'BTC',
              net_venue_position: '0.001',
              net_implied_position: '0',
              unexplained: true,
              residual_unhedged: '0',
              venues: [
                {
                  exchange: 'hyperliquid',
                  venue_position: '0.005',
                  side: 'long',
                  entry_price: '97000.5',
                  implied_position: '0.004',
                  difference: '0.001',
                  unexplained: true,
                  residual_unhedged: '0',
                  residual_trade_ids: [],
                  as_of: AT,
                  error: null,
                },
                {
                  exchange: 'paradex',
                  venue_position: '-0.004',
                  side: 'short',
                  entry_price: '97012',
                  implied_position: '-0.004',
                  difference: '0',
                  unexplained: false,
                  residual_unhedged: '0',
                  residual_trade_ids: [],
                  as_of: AT,
                  error: null,
                },
              ],
            },
          ],
        },
      },
    ],
    errors: API_KEY_OR_JWT,
  },
};
