import type { OperationAnswers } from './answers';
import {
  ref,
  arrayOf,
  WALLET,
  SECOND_WALLET,
  AT,
  API_KEY_OR_JWT,
  SESSION_ONLY,
  WITH_BODY,
} from './answers';

const NO_LIMIT = null;

/** The account: credentials, wallets, risk limits, the browser session. */
export const ACCOUNT_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/limits': {
    operationId: 'getLimits',
    description:
      "Each pre-trade risk limit in force for the caller (their own, else the operator's default; null where none is set) and the usage it is checked against, valued at the venues' mids of the moment. Scope account:read.",
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
    description:
      "The caller's exchange credentials, one per (exchange, wallet): metadata only, the keys are never returned. Scope account:read.",
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
    description:
      'Stores a venue API key for a wallet linked to the caller, sealed at rest; a second add for the same exchange and wallet replaces (rotates) it. Browser session only: an API key cannot change credentials.',
    requestExample: {
      wallet_addr: WALLET,
      api_key: 'paper-key-7f3a9f3a',
      api_secret: 'paper-secret-4b1d8e2c',
    },
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
    description:
      'Deletes the credential of a wallet on an exchange. Refused while a live trade of the wallet trades on that exchange. Browser session only.',
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
    description:
      "The wallets linked to the caller's account, the primary one (the wallet of the first sign-in) first. Scope account:read.",
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
    description:
      'Step 1 of linking a wallet: a single-use message, valid 5 minutes, that the wallet must sign (EIP-191 personal_sign). Browser session only.',
    requestExample: { address: SECOND_WALLET },
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
    description:
      'Step 2 of linking a wallet: the signed challenge. The challenge is consumed with the link, so a signature works once; a wallet linked to another account is refused. Browser session only.',
    requestExample: {
      address: SECOND_WALLET,
      nonce: 'Hq3T0eJ6x1bqV9nA2mYk5wZr',
      signature: `0x${'1b'.repeat(65)}`,
    },
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
    description:
      'Unlinks a wallet: never the primary one, and not while it has live trades. Browser session only.',
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
    description:
      "Called right after sign-in: verifies the JWT against the identity provider's keys and creates the account on the first call, with the token's wallet claim (if any) as its primary wallet. A token with no wallet claim makes an account with no wallet (`wallet_address` null): its first wallet linked through `POST /wallets/link/challenge` and `POST /wallets/link` becomes the primary. The body is empty (`{}`) or absent.",
    requestExample: {},
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
