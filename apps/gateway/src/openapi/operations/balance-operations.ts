import type { OperationAnswers } from './answers';
import { API_KEY_OR_JWT, AT, ref, WALLET } from './answers';

/** The caller's balances on the venues (issue 58). */
export const BALANCE_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/balances': {
    operationId: 'getBalances',
    description:
      "Each venue account of the caller (each active credential, and each account the caller's fills touched), read from the venue with the caller's stored credential, at most once per account every 2 s and paid from the account's rate budget: per margin asset (the assets the venue margins its markets in; other holdings are not listed) the wallet `balance`, the open positions' `unrealised_pnl`, `equity` (their sum), `available_margin` and `margin_used` (null when the venue does not say), in the asset. `totals` adds up `equity` and `available_margin` in USD over the entries margined in a USD stablecoin (USD, USDC, USDT, USD1, counted 1:1; `in_totals`); others and unreadable accounts are left out (`complete: false`). An account that cannot be read answers one entry with `error` and the other fields null; the rest still answer. Scope account:read.",
    successes: [
      {
        status: 200,
        description: "each account's margin balance and equity, with totals in USD",
        schema: ref('Balances'),
        example: {
          accounts: [
            {
              exchange: 'hyperliquid',
              wallet: WALLET,
              mode: 'paper',
              asset: 'USDC',
              balance: '10000',
              unrealised_pnl: '-1.25',
              equity: '9998.75',
              available_margin: '9900.25',
              margin_used: '98.5',
              in_totals: true,
              as_of: AT,
              error: null,
            },
            {
              exchange: 'paradex',
              wallet: WALLET,
              mode: 'paper',
              asset: null,
              balance: null,
              unrealised_pnl: null,
              equity: null,
              available_margin: null,
              margin_used: null,
              in_totals: false,
              as_of: AT,
              error: 'paradex balances unavailable: paradex did not answer within 5000 ms',
            },
          ],
          totals: { equity_usd: '9998.75', available_margin_usd: '9900.25', complete: false },
        },
      },
    ],
    errors: API_KEY_OR_JWT,
  },
};
