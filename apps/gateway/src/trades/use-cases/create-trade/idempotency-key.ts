import { AppError } from '@sts/platform';

export const IDEMPOTENCY_KEY_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * The key a create's headers carry: the contract's `X-Idempotency-Key` first,
 * else the IETF `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header),
 * whose value is a structured-field string, `"abc"`: its quotes are not part
 * of the key, and a bare token is taken as sent.
 */
export function headerIdempotencyKey(
  contractHeader: string | undefined,
  ietfHeader: string | undefined,
): string | undefined {
  if (contractHeader !== undefined) {
    return contractHeader;
  }
  const quoted = ietfHeader === undefined ? null : /^"(.*)"$/.exec(ietfHeader);
  return quoted ? quoted[1] : ietfHeader;
}

/**
 * The header wins over the body field; a key is required and must match the
 * pattern. The body field arrives as whatever JSON the client sent: absent,
 * null or "" is no key (idempotency_key_required); any other non-string, or a
 * string off the pattern, is invalid_idempotency_key. Never String(value):
 * `null` would become the key "null" and replay someone's earlier trade.
 */
export function resolveIdempotencyKey(header: string | undefined, bodyField: unknown): string {
  const key = header ?? bodyField;
  if (key === undefined || key === null || key === '') {
    throw new AppError(
      'idempotency_key_required',
      'an idempotency key is required: send X-Idempotency-Key or idempotency_key',
    );
  }
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError(
      'invalid_idempotency_key',
      'idempotency key must be a string matching ^[a-zA-Z0-9_-]{1,128}$',
    );
  }
  return key;
}
