import { ApiKeyEntity, UserEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { isScope, isValidCidr, issueApiKey, SCOPES } from '@sts/auth';
import type { OpsContext } from '../ops-context';

export const MAX_KEY_LIFETIME_DAYS = 365;

export interface CreateApiKeyOptions {
  user: string;
  scopes: string;
  allowIp?: string;
  expiresDays?: string;
  label?: string;
}

const splitList = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Issues a key: the raw key is printed once and only its SHA-256 is stored. */
export async function createApiKey(
  context: OpsContext,
  options: CreateApiKeyOptions,
  now = new Date(),
) {
  const scopes = [...new Set(splitList(options.scopes))];
  if (scopes.length === 0 || !scopes.every(isScope)) {
    throw new AppError('invalid_request', `scopes must be a comma list of ${SCOPES.join(', ')}`);
  }
  const allowedCidrs = splitList(options.allowIp);
  const badCidr = allowedCidrs.find((cidr) => !isValidCidr(cidr));
  if (badCidr) {
    throw new AppError('invalid_request', `not an IP or CIDR: ${badCidr}`);
  }
  const days =
    options.expiresDays === undefined ? MAX_KEY_LIFETIME_DAYS : Number(options.expiresDays);
  if (!Number.isInteger(days) || days < 1 || days > MAX_KEY_LIFETIME_DAYS) {
    throw new AppError(
      'invalid_request',
      `expires-days must be a whole number from 1 to ${MAX_KEY_LIFETIME_DAYS}`,
    );
  }
  const db = await context.db();
  return db.transaction(async (manager) => {
    if (!(await manager.getRepository(UserEntity).existsBy({ id: options.user }))) {
      throw new AppError('not_found', `no user ${options.user}`);
    }
    const issued = issueApiKey();
    const expiresAt = new Date(now.getTime() + days * 86_400_000);
    const key = await manager.getRepository(ApiKeyEntity).save({
      userId: options.user,
      prefix: issued.prefix,
      secretHash: issued.secretHash,
      scopes,
      allowedCidrs,
      label: options.label ?? '',
      expiresAt,
      createdBy: context.operatorId,
      createdAt: now,
    });
    await context.audit(manager, 'api-keys.create', key.id, {
      user_id: options.user,
      scopes,
      allowed_ips: allowedCidrs,
      expires_at: expiresAt.toISOString(),
    });
    return {
      key_id: key.id,
      api_key: issued.rawKey,
      user_id: options.user,
      scopes,
      allowed_ips: allowedCidrs,
      expires_at: expiresAt.toISOString(),
    };
  });
}

/** Revokes at once: the gateway and notifier read the key row on every request and socket check. */
export async function revokeApiKey(context: OpsContext, keyId: string, now = new Date()) {
  const db = await context.db();
  return db.transaction(async (manager) => {
    const keys = manager.getRepository(ApiKeyEntity);
    const key = /^[0-9a-f-]{36}$/i.test(keyId) ? await keys.findOneBy({ id: keyId }) : null;
    if (!key) {
      throw new AppError('not_found', `no API key ${keyId}`);
    }
    const revokedAt = key.revokedAt ?? now;
    if (!key.revokedAt) {
      await keys.update({ id: key.id }, { revokedAt });
    }
    await context.audit(manager, 'api-keys.revoke', key.id, { user_id: key.userId });
    return { key_id: key.id, revoked_at: revokedAt.toISOString() };
  });
}

export async function listApiKeys(context: OpsContext, userId: string) {
  const keys = await (await context.db()).getRepository(ApiKeyEntity).find({
    where: { userId },
    order: { createdAt: 'ASC' },
  });
  return keys.map((key) => ({
    key_id: key.id,
    prefix: key.prefix,
    scopes: key.scopes,
    allowed_ips: key.allowedCidrs,
    label: key.label,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  }));
}
