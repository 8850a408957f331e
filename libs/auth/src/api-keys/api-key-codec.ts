import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `sts_<prefix>_<secret>`: the prefix (12 base62-ish chars)
 * finds the row, the whole key is checked against a SHA-256 digest. With 256
 * bits of secret a fast hash is the right tool; a slow KDF adds nothing but
 * latency to every request.
 */
const KEY_PATTERN = /^sts_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedApiKey {
  /** Shown once to the operator, never stored. */
  readonly rawKey: string;
  readonly prefix: string;
  readonly secretHash: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomPrefix(): string {
  // 12 chars over 62 symbols; rejection sampling keeps the distribution uniform.
  let prefix = '';
  while (prefix.length < 12) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && prefix.length < 12) {
        prefix += ALPHABET[byte % 62];
      }
    }
  }
  return prefix;
}

export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

export function issueApiKey(): IssuedApiKey {
  const prefix = randomPrefix();
  const rawKey = `sts_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { rawKey, prefix, secretHash: hashApiKey(rawKey) };
}

/** The lookup prefix of a well-formed key, or null for anything else. */
export function apiKeyPrefix(rawKey: string): string | null {
  const match = KEY_PATTERN.exec(rawKey);
  return match ? match[1] : null;
}

export function apiKeyMatches(rawKey: string, secretHash: string): boolean {
  const expected = Buffer.from(secretHash, 'hex');
  const actual = Buffer.from(hashApiKey(rawKey), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
