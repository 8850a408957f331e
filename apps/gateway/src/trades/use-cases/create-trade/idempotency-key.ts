import { AppError } from '@sts/platform';

export const IDEMPOTENCY_KEY_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

/** The header wins over the body field; a key is required and must match the pattern. */
export function resolveIdempotencyKey(
  header: string | undefined,
  bodyField: string | undefined,
): string {
  const key = header ?? bodyField;
  if (key === undefined || key === '') {
    throw new AppError(
      'idempotency_key_required',
      'an idempotency key is required: send X-Idempotency-Key or idempotency_key',
    );
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError(
      'invalid_idempotency_key',
      'idempotency key must match ^[a-zA-Z0-9_-]{1,128}$',
    );
  }
  return key;
}
