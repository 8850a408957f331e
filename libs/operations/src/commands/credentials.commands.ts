import { isVenueId } from '@sts/domain';
import { CredentialStore } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { OpsContext } from '../ops-context';

export interface AddCredentialOptions {
  user: string;
  exchange: string;
  wallet: string;
  apiKey: string;
  apiSecret: string;
}

/** Seeds a venue credential (paper accounts, support requests) through the same store as the API. */
export async function addCredential(context: OpsContext, options: AddCredentialOptions) {
  if (!isVenueId(options.exchange)) {
    throw new AppError('unknown_exchange', `unknown exchange ${options.exchange}`);
  }
  const db = await context.db();
  const credential = await new CredentialStore(db, context.cipher()).put({
    userId: options.user,
    exchange: options.exchange,
    walletAddr: options.wallet,
    secret: { api_key: options.apiKey, api_secret: options.apiSecret },
  });
  await context.audit(db.manager, 'credentials.add', options.user, {
    exchange: credential.exchange,
    wallet: credential.walletAddr,
    key_preview: credential.keyPreview,
  });
  return {
    user_id: credential.userId,
    exchange: credential.exchange,
    wallet_addr: credential.walletAddr,
    key_preview: credential.keyPreview,
    added_at: credential.addedAt.toISOString(),
  };
}
