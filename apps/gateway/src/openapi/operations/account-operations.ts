import type { OperationAnswers } from './answers';
import { ref, arrayOf, WALLET, AT, API_KEY_OR_JWT, SESSION_ONLY, WITH_BODY } from './answers';

const NO_LIMIT = null;

/** The account: credentials, wallets, risk limits, the browser session. */
export const ACCOUNT_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/limits': {
    operationId: 'getLimits',
    successes: [
      {
        status: 200,
        description:
          "the caller's pre-trade risk limits (their own, else the default; null: none) and current usage",
        schema: ref('Limits'),
        example: {
          limits: {
            max_trade_notional: { value: '10000', source: 'default' },
            max_open_notional: { value: '50000', source: 'user' },
            max_open_notional_per_market: NO_LIMIT,
            max_live_trades: { value: '10', source: 'default' },
            max_slippage: NO_LIMIT,
          },
          usage: {
            open_notional: '12250',
            open_notional_by_market: { BTC: '12250' },
            live_trades: 2,
          },
          valued_at: AT,
        },
      },
    ],
    errors: API_KEY_OR_JWT,
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
