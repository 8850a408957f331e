import type { DataSource } from 'typeorm';
import {
  RequestAuthenticator,
  type AuthSettings,
  type PresentedCredentials,
  type Principal,
} from '@sts/auth';
import type { ChangeFeed } from '../infrastructure/change-feed';
import { ApiKeyCache } from './api-key-cache';

/**
 * The gateway's authenticator: API keys from the exact in-process cache
 * (ApiKeyCache), browser sessions (JWT) as @sts/auth verifies them.
 */
export class CachedRequestAuthenticator extends RequestAuthenticator {
  private readonly cachedKeys: ApiKeyCache;

  constructor(dataSource: DataSource, settings: AuthSettings, feed: ChangeFeed) {
    super(dataSource, settings);
    this.cachedKeys = new ApiKeyCache(dataSource, feed);
  }

  override authenticate(credentials: PresentedCredentials): Promise<Principal> {
    if (credentials.apiKey) {
      return this.cachedKeys.authenticate(
        credentials.apiKey,
        credentials.clientIp,
        credentials.arrivalMark,
      );
    }
    return super.authenticate(credentials);
  }
}
