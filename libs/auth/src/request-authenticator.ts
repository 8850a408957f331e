import type { DataSource } from 'typeorm';
import { AppError } from '@sts/platform';
import { ApiKeyAuthenticator } from './api-keys/api-key.authenticator';
import type { AuthSettings } from './auth.settings';
import { JwtAuthenticator } from './jwt/jwt.authenticator';
import type { Principal } from './principal';

export interface PresentedCredentials {
  /** The `X-API-Key` header. */
  apiKey?: string;
  /** The `Authorization` header (`Bearer <JWT>`), or a bare token from a WebSocket auth message. */
  authorization?: string;
  clientIp: string;
  /**
   * Where the request's place in its server's change order was taken when it
   * arrived (the gateway's ChangeFeed.mark()): an authenticator that keeps an
   * exact cache needs to have heard every change committed before it.
   */
  arrivalMark?: number;
}

/**
 * The one way any service turns presented credentials into a Principal.
 * The gateway's guard and the notifier's socket handshake both call it, so
 * both honour expiry, revocation and IP restrictions identically.
 */
export class RequestAuthenticator {
  readonly apiKeys: ApiKeyAuthenticator;
  readonly jwts: JwtAuthenticator;

  constructor(dataSource: DataSource, settings: AuthSettings) {
    this.apiKeys = new ApiKeyAuthenticator(dataSource);
    this.jwts = new JwtAuthenticator(settings);
  }

  async authenticate(credentials: PresentedCredentials): Promise<Principal> {
    if (credentials.apiKey) {
      return this.apiKeys.authenticate(credentials.apiKey, credentials.clientIp);
    }
    if (credentials.authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(credentials.authorization);
      if (!match) {
        throw new AppError('unauthorized', 'Authorization must be "Bearer <token>"');
      }
      return this.jwts.authenticate(match[1]);
    }
    throw new AppError('unauthorized', 'missing credentials: send X-API-Key or Authorization');
  }

  /** Batch form of stillValid for API keys: the ids, of those given, that are still usable. */
  validApiKeyIds(apiKeyIds: readonly string[], now = new Date()): Promise<Set<string>> {
    return this.apiKeys.validKeyIds(apiKeyIds, now);
  }

  /** Re-checks a live connection's principal: expired, or its key revoked since. */
  async stillValid(principal: Principal, now = new Date()): Promise<boolean> {
    if (principal.expiresAt.getTime() <= now.getTime()) {
      return false;
    }
    return principal.apiKeyId ? this.apiKeys.stillValid(principal.apiKeyId, now) : true;
  }
}
