import type { DataSource } from 'typeorm';
import {
  apiKeyMatches,
  apiKeyPrefix,
  ipAllowed,
  isScope,
  type Principal,
  type Scope,
} from '@sts/auth';
import { AppError } from '@sts/platform';
import type { ChangeFeed } from '../infrastructure/change-feed';
import { postgresPool } from '@sts/persistence';

/** The columns of a key that authentication needs; only revoked_at ever changes (and is heard). */
interface KeyRow {
  id: string;
  user_id: string;
  secret_hash: string;
  scopes: string[];
  allowed_cidrs: string[];
  expires_at: Date;
  revoked_at: Date | null;
}

const MAX_KEYS = 50_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * API keys by lookup prefix, kept in process and exact: a key is served from
 * memory only after a ChangeFeed fence, so a revocation (or any change to the
 * row) committed before the request arrived is always seen, whoever made it
 * (the operator tool, another replica, plain SQL). Without the feed every
 * request reads the row, as before. Same answers and messages as
 * ApiKeyAuthenticator in @sts/auth.
 */
export class ApiKeyCache {
  private readonly keys = new Map<string, KeyRow>();
  /** Raised by every change heard; a row read across a change is used once, not kept. */
  private generation = 0;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly feed: ChangeFeed,
  ) {
    feed.subscribe((change) => {
      if (change !== 'reset' && change.table !== 'api_keys') {
        return;
      }
      this.generation += 1;
      if (change === 'reset' || change.prefix === null) {
        this.keys.clear();
      } else {
        this.keys.delete(change.prefix);
      }
    });
  }

  /**
   * `arrivalMark`: ChangeFeed.mark() when the request arrived; a cached key is
   * served once every change committed before it has been heard (by default,
   * before this call).
   */
  async authenticate(
    rawKey: string,
    clientIp: string,
    arrivalMark?: number,
    now = new Date(),
  ): Promise<Principal> {
    const prefix = apiKeyPrefix(rawKey);
    const key = prefix ? await this.find(prefix, arrivalMark) : null;
    if (!key || !apiKeyMatches(rawKey, key.secret_hash)) {
      throw new AppError('unauthorized', 'invalid API key');
    }
    if (key.revoked_at) {
      throw new AppError('unauthorized', 'API key revoked');
    }
    if (key.expires_at.getTime() <= now.getTime()) {
      throw new AppError('unauthorized', 'API key expired');
    }
    if (!ipAllowed(clientIp, key.allowed_cidrs)) {
      throw new AppError('ip_not_allowed', 'request IP is not allowed for this API key');
    }
    this.touch(key.id, now);
    return {
      userId: key.user_id,
      method: 'api_key',
      scopes: new Set(key.scopes.filter(isScope) as Scope[]),
      apiKeyId: key.id,
      expiresAt: key.expires_at,
    };
  }

  private async find(prefix: string, arrivalMark?: number): Promise<KeyRow | null> {
    if (this.keys.has(prefix) && (await this.feed.fence(arrivalMark))) {
      // Looked up again: the fence may have brought this key's change.
      const cached = this.keys.get(prefix);
      if (cached) {
        return cached;
      }
    }
    const generation = this.generation;
    const listening = this.feed.isListening;
    const { rows } = await postgresPool(this.dataSource).query<KeyRow>(
      `SELECT id, user_id, secret_hash, scopes, allowed_cidrs, expires_at, revoked_at
       FROM api_keys WHERE prefix = $1`,
      [prefix],
    );
    const row = rows[0] ?? null;
    // Unknown prefixes are not kept: a key created later makes no notice.
    if (row && listening && generation === this.generation) {
      if (this.keys.size >= MAX_KEYS) {
        this.keys.delete(this.keys.keys().next().value as string);
      }
      this.keys.set(prefix, row);
    }
    return row;
  }

  /** last_used_at is informational: written at most once a minute per key, off the request path. */
  private touch(keyId: string, now: Date): void {
    const last = this.lastUsedWritten.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) {
      return;
    }
    this.lastUsedWritten.set(keyId, now.getTime());
    this.dataSource
      .query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, [keyId, now])
      .catch(() => {
        this.lastUsedWritten.delete(keyId);
      });
  }
}
