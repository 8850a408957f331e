import type { Schema } from './schema-helpers';
import { RISK_LIMIT_NAMES } from '@sts/persistence';
import { decimal, ref, text, timestamp, object, EXCHANGE } from './schema-helpers';

const LIMIT_MEANING: Record<(typeof RISK_LIMIT_NAMES)[number], string> = {
  max_trade_notional: "USD: one trade's target (a base target at the venues' mid)",
  max_open_notional: 'USD: the targets of all live trades together',
  max_open_notional_per_market: 'USD: the targets of the live trades of one market',
  max_live_trades: 'live trades at once',
  max_slippage: 'the largest max_slippage a trade may carry',
};

/** Wallets, credentials, risk limits, the browser session. */
export const ACCOUNT_SCHEMAS: Record<string, Schema> = {
  Limit: object(
    {
      value: decimal('the limit'),
      source: text("the user's own, or the default for every user", {
        enum: ['user', 'default'],
      }),
    },
    ['value', 'source'],
    { additionalProperties: false },
  ),
  Limits: object(
    {
      limits: object(
        Object.fromEntries(
          RISK_LIMIT_NAMES.map((name) => [
            name,
            {
              oneOf: [ref('Limit'), { type: 'null' }],
              description: `${LIMIT_MEANING[name]}; null: no limit`,
            },
          ]),
        ),
        [...RISK_LIMIT_NAMES],
        { additionalProperties: false },
      ),
      usage: object(
        {
          open_notional: decimal("USD: the live trades' targets, base ones at the venues' mid now"),
          open_notional_by_market: {
            type: 'object',
            description: 'USD per canonical market',
            additionalProperties: decimal('USD'),
          },
          live_trades: { type: 'integer', minimum: 0 },
        },
        ['open_notional', 'open_notional_by_market', 'live_trades'],
        { additionalProperties: false },
      ),
      valued_at: timestamp('when usage was valued'),
    },
    ['limits', 'usage', 'valued_at'],
    { additionalProperties: false },
  ),
  Wallet: object(
    {
      address: text('wallet address'),
      linked_at: timestamp('when it was linked'),
      verified: { type: 'boolean' },
    },
    ['address', 'linked_at', 'verified'],
    { additionalProperties: false },
  ),
  WalletLinkChallenge: object(
    {
      address: text('the wallet to link'),
      nonce: text('single-use challenge nonce'),
      message: text('the exact text to sign (EIP-191)'),
      expires_at: timestamp('the challenge is valid 5 minutes, once'),
    },
    ['address', 'nonce', 'message', 'expires_at'],
    { additionalProperties: false },
  ),
  WalletUnlinked: object(
    { status: { const: 'unlinked' }, address: text('the wallet, lower case') },
    ['status', 'address'],
    { additionalProperties: false },
  ),
  Credential: object(
    {
      exchange: EXCHANGE,
      wallet_addr: text('wallet the credential belongs to'),
      key_preview: text('ellipsis and the last 4 characters of the public key part'),
      permissions: { const: 'trade' },
      added_at: timestamp('when it was added'),
      last_used: { ...timestamp('last decrypt for an execution'), type: ['string', 'null'] },
      status: { const: 'active' },
    },
    ['exchange', 'wallet_addr', 'key_preview', 'permissions', 'added_at', 'last_used', 'status'],
    { additionalProperties: false },
  ),
  CredentialDeleted: object(
    {
      status: { const: 'deleted' },
      exchange: EXCHANGE,
      wallet_addr: text('the wallet, lower case'),
    },
    ['status', 'exchange', 'wallet_addr'],
    { additionalProperties: false },
  ),
  Session: object(
    {
      user_id: text('the account'),
      wallet_address: text(
        "the primary wallet; null for an account whose sign-in named no wallet (an OpenID Connect provider's) until it links one through POST /wallets/link",
        { type: ['string', 'null'] },
      ),
      new_account: { type: 'boolean', description: 'true on the first sign-in' },
      expires_at: timestamp('when the JWT expires'),
      scopes: { type: 'array', items: { type: 'string' } },
    },
    ['user_id', 'wallet_address', 'new_account', 'expires_at', 'scopes'],
    { additionalProperties: false },
  ),
};
