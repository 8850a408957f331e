import { Webhook } from 'standardwebhooks';
import {
  webhookSecretContext,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpointWithSecret,
} from '@sts/persistence';
import type { CredentialCipher } from '@sts/platform';
import { RENDERERS } from './formats/renderers';
import type { OutboundPost, PostResult } from './outbound-post';

export const WEBHOOK_USER_AGENT = 'sts-webhooks/1.0';

/** The most of an answer's body kept in an attempt's error line. */
const ERROR_BODY_CHARS = 200;

/**
 * What an attempt says of the delivery: delivered (a 2xx), `gone` (410: the
 * receiver asks for no more), `invalid` (it can never be sent as it is: a
 * Telegram URL without its chat), `retry` (anything else), or `stopped`
 * (cut short by a stopping dispatcher: not an attempt).
 */
export type SendVerdict = 'delivered' | 'gone' | 'invalid' | 'retry' | 'stopped';

export interface SendResult {
  verdict: SendVerdict;
  attempt: WebhookAttempt;
}

/**
 * Sends one delivery to its endpoint, once: the body rendered in the
 * endpoint's format and signed as Standard Webhooks says (`webhook-id` the
 * delivery's message id on every attempt, `webhook-timestamp` the attempt's
 * time in seconds, `webhook-signature` `v1,<base64 HMAC-SHA256>` of
 * `id.timestamp.body` with the endpoint's secret), through OutboundPost.
 * The chat formats are signed too: their services ignore the headers.
 */
export class WebhookSender {
  constructor(
    private readonly cipher: CredentialCipher,
    private readonly outbound: OutboundPost,
  ) {}

  async send(
    endpoint: WebhookEndpointWithSecret,
    delivery: WebhookDelivery,
    stopping: AbortSignal,
  ): Promise<SendResult> {
    const at = new Date();
    let rendered;
    try {
      rendered = RENDERERS[endpoint.format](delivery.payload, endpoint.url);
    } catch (error) {
      return { verdict: 'invalid', attempt: attemptOf(at, null, messageOf(error), 0) };
    }
    let signature: string;
    try {
      const secret = this.cipher.openText(
        endpoint.secret,
        webhookSecretContext(endpoint.userId, endpoint.id),
      );
      signature = new Webhook(secret).sign(delivery.messageId, at, rendered.body);
    } catch (error) {
      // An operator's matter (a key rotated away): retried, the endpoint's owner sees why.
      const why = `not signed: the signing secret cannot be opened (${messageOf(error)})`;
      return { verdict: 'retry', attempt: attemptOf(at, null, why, 0) };
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const result = await this.outbound.post(rendered.url, headers, rendered.body, stopping);
    return resultOf(at, result);
  }
}

function resultOf(at: Date, result: PostResult): SendResult {
  switch (result.kind) {
    case 'stopped':
      return { verdict: 'stopped', attempt: attemptOf(at, null, 'stopping', result.durationMs) };
    case 'refused':
    case 'unreachable':
      return { verdict: 'retry', attempt: attemptOf(at, null, result.error, result.durationMs) };
    case 'answered': {
      const { status, durationMs } = result;
      if (status >= 200 && status < 300) {
        return { verdict: 'delivered', attempt: attemptOf(at, status, null, durationMs) };
      }
      const error =
        status >= 300 && status < 400
          ? `answered ${status}, a redirect${result.location ? ` to ${clip(result.location)}` : ''}: not followed`
          : `answered ${status}${result.body.trim() ? `: ${clip(result.body)}` : ''}`;
      return {
        verdict: status === 410 ? 'gone' : 'retry',
        attempt: attemptOf(at, status, error, durationMs),
      };
    }
  }
}

const attemptOf = (
  at: Date,
  statusCode: number | null,
  error: string | null,
  durationMs: number,
): WebhookAttempt => ({
  at: at.toISOString(),
  status_code: statusCode,
  error,
  duration_ms: durationMs,
});

/** An answer's text on one line, cut to ERROR_BODY_CHARS. */
const clip = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= ERROR_BODY_CHARS ? line : `${line.slice(0, ERROR_BODY_CHARS)}…`;
};

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
