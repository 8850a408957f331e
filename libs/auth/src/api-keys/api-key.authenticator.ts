import type { DataSource, Repository } from 'typeorm';
import { ApiKeyEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { isScope, type Principal, type Scope } from '../principal';
import { apiKeyMatches, apiKeyPrefix } from './api-key-codec';
import { ipAllowed } from './ip-allow-list';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves an `X-API-Key` to its user. The row is read on every call (one
 * indexed lookup) so a revocation takes effect on the very next request.
 */
export class ApiKeyAuthenticator {
  private readonly keys: Repository<ApiKeyEntity>;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(dataSource: DataSource) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
  }

  async authenticate(rawKey: string, clientIp: string, now = new Date()): Promise<Principal> {
    const prefix = apiKeyPrefix(rawKey);
    const key = prefix ? await this.keys.findOneBy({ prefix }) : null;
    if (!key || !apiKeyMatches(rawKey, key.secretHash)) {
      throw new AppError('unauthorized', 'invalid API key');
    }
    if (key.revokedAt) {
      throw new AppError('unauthorized', 'API key revoked');
    }
    if (key.expiresAt.getTime() <= now.getTime()) {
      throw new AppError('unauthorized', 'API key expired');
    }
    if (!ipAllowed(clientIp, key.allowedCidrs)) {
      throw new AppError('ip_not_allowed', 'request IP is not allowed for this API key');
    }
    this.touch(key.id, now);
    return {
      userId: key.userId,
      method: 'api_key',
      scopes: new Set(key.scopes.filter(isScope) as Scope[]),
      apiKeyId: key.id,
      expiresAt: key.expiresAt,
    };
  }

  /** Is the key behind a live connection still usable? (revoked or expired since connect) */
  async stillValid(apiKeyId: string, now = new Date()): Promise<boolean> {
    const key = await this.keys.findOneBy({ id: apiKeyId });
    return !!key && !key.revokedAt && key.expiresAt.getTime() > now.getTime();
  }

  /** Of the given key ids, those still usable: one query for every live connection's key. */
  async validKeyIds(apiKeyIds: readonly string[], now = new Date()): Promise<Set<string>> {
    if (apiKeyIds.length === 0) {
      return new Set();
    }
    const rows = await this.keys
      .createQueryBuilder('key')
      .select('key.id', 'id')
      .where('key.id = ANY(:ids)', { ids: [...apiKeyIds] })
      .andWhere('key.revoked_at IS NULL')
      .andWhere('key.expires_at > :now', { now })
      .getRawMany<{ id: string }>();
    return new Set(rows.map((row) => row.id));
  }

  /** last_used_at is informational: written at most once a minute per key, off the request path. */
  private touch(keyId: string, now: Date): void {
    const last = this.lastUsedWritten.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) {
      return;
    }
    this.lastUsedWritten.set(keyId, now.getTime());
    this.keys.update({ id: keyId }, { lastUsedAt: now }).catch(() => {
      this.lastUsedWritten.delete(keyId);
    });
  }
}
