import { randomBytes } from 'node:crypto';

/** Random bytes of a signing secret: Standard Webhooks asks 24 to 64. */
export const WEBHOOK_SECRET_BYTES = 24;

/**
 * A new signing secret in the Standard Webhooks form, `whsec_` and the
 * base64 of its bytes: what the `standardwebhooks` libraries take as they
 * are to verify a delivery's `webhook-signature`.
 */
export const newWebhookSecret = (): string =>
  `whsec_${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
