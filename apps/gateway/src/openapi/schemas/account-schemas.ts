import type { Schema } from './schema-helpers';
import { text, timestamp, object, EXCHANGE } from './schema-helpers';

/** Wallets, credentials, the browser session. */
export const ACCOUNT_SCHEMAS: Record<string, Schema> = {
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
      wallet_address: text('primary wallet'),
      new_account: { type: 'boolean', description: 'true on the first sign-in' },
      expires_at: timestamp('when the JWT expires'),
      scopes: { type: 'array', items: { type: 'string' } },
    },
    ['user_id', 'wallet_address', 'new_account', 'expires_at', 'scopes'],
    { additionalProperties: false },
  ),
};
