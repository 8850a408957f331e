import type { ExchangeCredentialEntity } from '@sts/persistence';

/** Metadata only: the sealed secret never leaves the persistence layer through here. */
export interface CredentialView {
  exchange: string;
  wallet_addr: string;
  key_preview: string;
  permissions: string;
  added_at: string;
  last_used: string | null;
  status: string;
}

export const presentCredential = (credential: ExchangeCredentialEntity): CredentialView => ({
  exchange: credential.exchange,
  wallet_addr: credential.walletAddr,
  key_preview: credential.keyPreview,
  permissions: credential.permissions,
  added_at: credential.addedAt.toISOString(),
  last_used: credential.lastUsed ? credential.lastUsed.toISOString() : null,
  status: credential.status,
});
