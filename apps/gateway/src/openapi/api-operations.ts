import type { ErrorCode } from '@sts/platform';

/**
 * What each operation answers: its successes (status, schema, example) and the
 * error codes it can refuse with. Statuses of the codes come from the one
 * mapping (`httpStatusOf`), so the description and the filter cannot disagree.
 */
export interface Success {
  status: number;
  description: string;
  schema: Record<string, unknown>;
  example: unknown;
}

export interface OperationAnswers {
  operationId: string;
  successes: Success[];
  /** Codes it refuses with; `session_required` marks a browser-session-only operation. */
  errors: ErrorCode[];
  /** Needs no credentials (interface: Public endpoints). */
  public?: boolean;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });

const TRADE_ID = '8f14e45f-ceea-467a-9575-6c3f1b2a9e01';
const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const AT = '2026-01-05T09:30:00.000Z';

const TRADE_EXAMPLE = {
  trade_id: TRADE_ID,
  user_id: 'user-1',
  market: 'BTC',
  long_exchange: 'hyperliquid',
  long_wallet: WALLET,
  short_exchange: 'paradex',
  short_wallet: WALLET,
  target_spread: '5',
  spread_condition: 'gte',
  target_size: '0.01',
  filled_size: '0.004',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
  status: 'active',
  rate_budget: 10,
  hedge_rate_budget: 5,
  created_at: AT,
  updated_at: AT,
  completed_at: null,
  size_type: 'base',
  spread_type: 'absolute',
  failure_reason: '',
  fast_move_guard_stats: null,
};

/**
 * Refused by the edge (a body, even on a GET or DELETE, is parsed and bounded
 * first), by the rate limiter or for a lost dependency, on any route.
 */
export const EVERY_ROUTE: ErrorCode[] = [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
  'rate_limited',
  'uri_too_long',
  'headers_too_large',
  'service_unavailable',
  'internal_error',
];
const API_KEY_OR_JWT: ErrorCode[] = ['unauthorized', 'insufficient_scope', 'ip_not_allowed'];
const SESSION_ONLY: ErrorCode[] = ['unauthorized', 'session_required'];
const WITH_BODY: ErrorCode[] = [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
];

/** Keyed by `<method> <path>` as the document names them. */
export const OPERATIONS: Record<string, OperationAnswers> = {
  'post /api/v1/trades': {
    operationId: 'createTrade',
    successes: [
      {
        status: 202,
        description: 'accepted; execution starts asynchronously',
        schema: ref('CreateTradeAccepted'),
        example: { trade_id: TRADE_ID, status: 'pending', rate_budget: 10, hedge_rate_budget: 5 },
      },
      {
        status: 200,
        description: 'replayed idempotency key: the original trade, nothing created',
        schema: ref('CreateTradeReplayed'),
        example: { trade_id: TRADE_ID, status: 'active', rate_budget: 10, idempotent: true },
      },
    ],
    errors: [
      ...API_KEY_OR_JWT,
      ...WITH_BODY,
      'idempotency_key_required',
      'invalid_idempotency_key',
      'same_exchange',
      'market_not_tradeable',
      'credentials_not_linked',
      'maker_cap_exceeded',
      'rate_budget_exhausted',
      'system_maintenance',
      'exchange_maintenance',
      'kill_switch',
      'budget_unavailable',
    ],
  },
  'get /api/v1/trades': {
    operationId: 'listTrades',
    successes: [
      {
        status: 200,
        description: "the caller's 50 most recent trades, newest first",
        schema: arrayOf('Trade'),
        example: [TRADE_EXAMPLE],
      },
    ],
    errors: API_KEY_OR_JWT,
  },
  'get /api/v1/trades/{tradeId}': {
    operationId: 'getTrade',
    successes: [
      { status: 200, description: 'the trade', schema: ref('Trade'), example: TRADE_EXAMPLE },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
  'get /api/v1/trades/{tradeId}/events': {
    operationId: 'listTradeEvents',
    successes: [
      {
        status: 200,
        description: 'the execution log, ordered by sequence',
        schema: ref('TradeEvents'),
        example: {
          trade_id: TRADE_ID,
          events: [
            {
              sequence: 1,
              event_type: 'chunk_started',
              data: { target_size: '0.01', size_type: 'base' },
              worker_id: 'worker-a',
              created_at: AT,
            },
            {
              sequence: 2,
              event_type: 'hedge_sent',
              data: { exchange: 'paradex', side: 'sell', size: '0.004' },
              worker_id: 'worker-a',
              created_at: AT,
            },
          ],
        },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'invalid_request', 'trade_not_found'],
  },
  'patch /api/v1/trades/{tradeId}': {
    operationId: 'amendTrade',
    successes: [
      {
        status: 200,
        description: 'the owning worker acknowledged it; applied on the next quote cycle',
        schema: ref('AmendmentSent'),
        example: { status: 'amendment_sent', trade_id: TRADE_ID },
      },
      {
        status: 202,
        description: 'stored, not acknowledged within 500 ms; applied as soon as possible',
        schema: ref('AmendmentPersisted'),
        example: {
          status: 'amendment_persisted',
          trade_id: TRADE_ID,
          warning: 'the trade is not quoting now; the amendment applies when it does',
        },
      },
    ],
    errors: [
      ...API_KEY_OR_JWT,
      ...WITH_BODY,
      'trade_not_found',
      'trade_not_amendable',
      'system_maintenance',
      'exchange_maintenance',
    ],
  },
  'delete /api/v1/trades/{tradeId}': {
    operationId: 'cancelTrade',
    successes: [
      {
        status: 200,
        description: 'the trade was still pending: canceled directly',
        schema: ref('TradeCanceled'),
        example: { status: 'canceled', trade_id: TRADE_ID },
      },
      {
        status: 202,
        description: 'executing (canceled within seconds), or already terminal (no-op)',
        schema: ref('CancelSent'),
        example: { status: 'cancel_sent', trade_id: TRADE_ID },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
  'get /api/v1/markets': {
    operationId: 'listMarkets',
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
  'get /api/v1/maintenance': {
    operationId: 'listMaintenance',
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
  'get /api/v1/credentials': {
    operationId: 'listCredentials',
    successes: [
      {
        status: 200,
        description: 'metadata of the linked credentials; never a key',
        schema: arrayOf('Credential'),
        example: [
          {
            exchange: 'hyperliquid',
            wallet_addr: WALLET,
            key_preview: '…9f3a',
            permissions: 'trade',
            added_at: AT,
            last_used: null,
            status: 'active',
          },
        ],
      },
    ],
    errors: API_KEY_OR_JWT,
  },
  'post /api/v1/credentials/{exchange}': {
    operationId: 'addCredential',
    successes: [
      {
        status: 201,
        description: 'stored (sealed); a second add for the wallet rotates it',
        schema: ref('Credential'),
        example: {
          exchange: 'hyperliquid',
          wallet_addr: WALLET,
          key_preview: '…9f3a',
          permissions: 'trade',
          added_at: AT,
          last_used: null,
          status: 'active',
        },
      },
    ],
    errors: [...SESSION_ONLY, ...WITH_BODY, 'unknown_exchange', 'wallet_not_found'],
  },
  'delete /api/v1/credentials/{exchange}/{wallet}': {
    operationId: 'removeCredential',
    successes: [
      {
        status: 200,
        description: 'removed',
        schema: ref('CredentialDeleted'),
        example: { status: 'deleted', exchange: 'hyperliquid', wallet_addr: WALLET },
      },
    ],
    errors: [...SESSION_ONLY, 'invalid_request', 'credential_not_found', 'wallet_has_live_trades'],
  },
  'get /api/v1/wallets': {
    operationId: 'listWallets',
    successes: [
      {
        status: 200,
        description: 'the linked wallets, primary first',
        schema: arrayOf('Wallet'),
        example: [{ address: WALLET, linked_at: AT, verified: true }],
      },
    ],
    errors: API_KEY_OR_JWT,
  },
  'post /api/v1/wallets/link/challenge': {
    operationId: 'issueWalletLinkChallenge',
    successes: [
      {
        status: 201,
        description: 'a single-use challenge, valid 5 minutes',
        schema: ref('WalletLinkChallenge'),
        example: {
          address: WALLET,
          nonce: 'b1c4f0e2a9d84d5f',
          message: `Link wallet ${WALLET} to your spread trading account. Nonce: b1c4f0e2a9d84d5f`,
          expires_at: AT,
        },
      },
    ],
    errors: [...SESSION_ONLY, ...WITH_BODY],
  },
  'post /api/v1/wallets/link': {
    operationId: 'linkWallet',
    successes: [
      {
        status: 201,
        description: 'the wallet is linked to the account (a new link is created)',
        schema: ref('Wallet'),
        example: { address: WALLET, linked_at: AT, verified: true },
      },
    ],
    errors: [
      ...SESSION_ONLY,
      ...WITH_BODY,
      'invalid_signature',
      'nonce_expired',
      'wallet_already_linked',
    ],
  },
  'delete /api/v1/wallets/{address}': {
    operationId: 'unlinkWallet',
    successes: [
      {
        status: 200,
        description: 'unlinked',
        schema: ref('WalletUnlinked'),
        example: { status: 'unlinked', address: WALLET },
      },
    ],
    errors: [
      ...SESSION_ONLY,
      'invalid_request',
      'wallet_not_found',
      'wallet_is_primary',
      'wallet_has_live_trades',
    ],
  },
  'post /api/v1/auth/verify': {
    operationId: 'verifySession',
    successes: [
      {
        status: 200,
        description: 'the session; the account and primary wallet are created on first sign-in',
        schema: ref('Session'),
        example: {
          user_id: 'user-1',
          wallet_address: WALLET,
          new_account: false,
          expires_at: AT,
          scopes: ['trades:read', 'trades:write', 'account:read'],
        },
      },
    ],
    errors: [...SESSION_ONLY, ...WITH_BODY, 'wallet_already_linked'],
  },
};
