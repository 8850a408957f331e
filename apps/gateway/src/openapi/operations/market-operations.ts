import type { OperationAnswers } from './answers';
import { ref, arrayOf, AT } from './answers';

/** Markets, a market's spread, maintenance flags. */
export const MARKET_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/markets': {
    operationId: 'listMarkets',
    description:
      'The market universes of the listed exchanges: by default the markets on all of them (strict intersection); `min_exchanges=1` gives the union. Each market carries its per-exchange symbol, tick, lot and minimum sizes. Public.',
    public: true,
    successes: [
      {
        status: 200,
        description: 'markets listed on at least min_exchanges of the exchanges',
        schema: ref('Markets'),
        example: {
          markets: [
            {
              canonical: 'BTC',
              exchanges: {
                hyperliquid: {
                  symbol: 'BTC',
                  tick_size: '1',
                  lot_size: '0.001',
                  min_size: '0.001',
                },
                paradex: {
                  symbol: 'BTC-USD-PERP',
                  tick_size: '0.1',
                  lot_size: '0.001',
                  min_size: '0.001',
                  min_notional: '10',
                },
              },
            },
          ],
        },
      },
    ],
    errors: ['invalid_request', 'unknown_exchange'],
  },
  'get /api/v1/markets/{market}/spread': {
    operationId: 'getMarketSpread',
    description:
      "The spread the terms of a trade would see now on the two venues' books, in the units of `spread_type`, and, with `target_spread` and `spread_condition`, whether the condition holds. Public.",
    public: true,
    successes: [
      {
        status: 200,
        description:
          "both venues' touch and the spread a trade with these terms would see now (the worker's own rules)",
        schema: ref('MarketSpread'),
        example: {
          market: 'BTC',
          long_exchange: 'hyperliquid',
          short_exchange: 'paradex',
          long: { bid: '100000', ask: '100001' },
          short: { bid: '100004.5', ask: '100004.6' },
          spread_type: 'absolute',
          spread: '4.5',
          condition_met: false,
          at: AT,
        },
      },
    ],
    errors: [
      'invalid_request',
      'unknown_exchange',
      'same_exchange',
      'market_not_tradeable',
      'not_found',
    ],
  },
  'get /api/v1/exchanges': {
    operationId: 'listExchanges',
    public: true,
    successes: [
      {
        status: 200,
        description: 'every venue of the deployment, in the registry order',
        schema: arrayOf('Exchange'),
        example: [
          {
            exchange: 'hyperliquid',
            mode: 'live',
            maker_cap: 2,
            cap_group: 'hyperliquid',
            shared_account_limit: true,
            hedge_timeout_ms: 3000,
            maintenance: false,
            trading_halted: false,
          },
        ],
      },
    ],
    errors: [],
  },
  'get /api/v1/maintenance': {
    operationId: 'listMaintenance',
    description:
      'The maintenance flags: `_system` first, then one entry per exchange. Clients that show an indicator poll every 30 to 60 seconds. Public.',
    public: true,
    successes: [
      {
        status: 200,
        description: '`_system` first, then one entry per exchange',
        schema: arrayOf('MaintenanceEntry'),
        example: [
          { exchange: '_system', enabled: false, reason: '', updated_by: '', updated_at: AT },
          {
            exchange: 'paradex',
            enabled: true,
            reason: 'venue upgrade',
            updated_by: 'op-17',
            updated_at: AT,
          },
        ],
      },
    ],
    errors: [],
  },
};
