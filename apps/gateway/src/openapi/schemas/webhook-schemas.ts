import {
  MAX_LOGGED_ATTEMPTS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FORMATS,
} from '@sts/persistence';
import { WEBHOOK_TEST_EVENT } from '../../webhooks/use-cases/test-webhook/test-webhook.use-case';
import type { Schema } from './schema-helpers';
import { object, ref, text, timestamp } from './schema-helpers';

const nullable = (schema: Schema, type = 'string'): Schema => ({ ...schema, type: [type, 'null'] });

/** What every answer carrying an endpoint shows of it (the secret only in the create's). */
const ENDPOINT_FIELDS: Record<string, Schema> = {
  id: text('the endpoint id', { format: 'uuid' }),
  url: text('where deliveries are POSTed, as normalized (WHATWG URL): what is called'),
  events: {
    type: 'array',
    items: ref('WebhookEventType'),
    minItems: 1,
    uniqueItems: true,
    description: 'the event types delivered to it',
  },
  format: ref('WebhookFormat'),
  description: text('free text of the owner ("" when none was given)'),
  created_at: timestamp('when it was registered'),
};

/** Webhooks (issue 58; decisions section 8): endpoints, their deliveries and attempts. */
export const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  WebhookEventType: text('an event type an endpoint can subscribe to', {
    enum: [...WEBHOOK_EVENT_TYPES],
  }),
  WebhookFormat: text(
    'the body sent: `standard` (Standard Webhooks `{type, timestamp, data}`), or the message a chat service takes (`discord`, `slack`, `telegram`)',
    { enum: [...WEBHOOK_FORMATS] },
  ),
  WebhookCreated: object(
    {
      ...ENDPOINT_FIELDS,
      secret: text(
        'the signing secret (Standard Webhooks: `whsec_` and the base64 of 24 random bytes); shown in this answer only, never again',
        { pattern: '^whsec_[A-Za-z0-9+/]{32}$' },
      ),
    },
    [...Object.keys(ENDPOINT_FIELDS), 'secret'],
    { additionalProperties: false },
  ),
  Webhook: object(
    {
      ...ENDPOINT_FIELDS,
      status: text(
        '`active`; `failing`: deliveries are failing and being retried (since `failing_since`); `disabled`: failing too long, sent nothing more (`disabled_reason`)',
        { enum: ['active', 'failing', 'disabled'] },
      ),
      failing_since: nullable(
        timestamp('the first failed delivery of the current run; null: not failing'),
      ),
      disabled_at: nullable(timestamp('when it was disabled; null: not disabled')),
      disabled_reason: nullable(text('why it was disabled; null: not disabled')),
    },
    [...Object.keys(ENDPOINT_FIELDS), 'status', 'failing_since', 'disabled_at', 'disabled_reason'],
    { additionalProperties: false },
  ),
  WebhookList: object(
    {
      webhooks: {
        type: 'array',
        items: ref('Webhook'),
        description: "the caller's endpoints, oldest first",
      },
    },
    ['webhooks'],
    { additionalProperties: false },
  ),
  WebhookAttempt: object(
    {
      at: timestamp('when the attempt was sent'),
      status_code: nullable(
        { type: 'integer', description: "the receiver's HTTP status; null: no answer came" },
        'integer',
      ),
      error: nullable(text('what went wrong, in a line; null for a 2xx')),
      duration_ms: { type: 'integer', minimum: 0, description: 'from sending to the answer' },
    },
    ['at', 'status_code', 'error', 'duration_ms'],
    { additionalProperties: false },
  ),
  WebhookDelivery: object(
    {
      id: text('the delivery id (the `before` of the next page)', { pattern: '^[0-9]+$' }),
      message_id: text('its `webhook-id` header, the same on every attempt (`msg_...`)'),
      event_type: text(
        `an event type, or \`${WEBHOOK_TEST_EVENT}\` for POST /webhooks/{webhookId}/test`,
        { enum: [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] },
      ),
      status: text(
        '`pending` (to be sent or retried at next_attempt_at), `delivered`, `failed` (retries given up), `canceled` (the endpoint was deleted or disabled first)',
        { enum: [...WEBHOOK_DELIVERY_STATUSES] },
      ),
      attempts: { type: 'integer', minimum: 0, description: 'attempts made so far' },
      attempt_log: {
        type: 'array',
        items: ref('WebhookAttempt'),
        maxItems: MAX_LOGGED_ATTEMPTS,
        description: `the attempts, oldest first (the newest ${MAX_LOGGED_ATTEMPTS} kept)`,
      },
      next_attempt_at: nullable(
        timestamp('when it is sent next (pending only); null once finished'),
      ),
      created_at: timestamp('when the event was owed to the endpoint'),
      finished_at: nullable(timestamp('when it was delivered, failed or canceled; null: pending')),
    },
    [
      'id',
      'message_id',
      'event_type',
      'status',
      'attempts',
      'attempt_log',
      'next_attempt_at',
      'created_at',
      'finished_at',
    ],
    { additionalProperties: false },
  ),
  WebhookDeliveries: object(
    {
      deliveries: {
        type: 'array',
        items: ref('WebhookDelivery'),
        description: 'newest first',
      },
      next_before: text(
        'present when older deliveries follow: pass it as `before` for the next page',
        { pattern: '^[0-9]+$' },
      ),
    },
    ['deliveries'],
    { additionalProperties: false },
  ),
  WebhookTestSent: object(
    {
      message_id: text(
        'the test delivery’s `webhook-id`; it shows in GET /webhooks/{webhookId}/deliveries',
      ),
    },
    ['message_id'],
    { additionalProperties: false },
  ),
};
