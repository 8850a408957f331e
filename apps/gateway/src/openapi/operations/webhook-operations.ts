import { MAX_WEBHOOK_ENDPOINTS_PER_USER } from '@sts/persistence';
import type { OperationAnswers } from './answers';
import { API_KEY_OR_JWT, AT, ref, WITH_BODY } from './answers';

const WEBHOOK_ID = '3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57';
const URL = 'https://hooks.example.com/sts';
const ENDPOINT = {
  id: WEBHOOK_ID,
  url: URL,
  events: ['trade.status_changed', 'trade.fill'],
  format: 'standard',
  description: 'trade alerts for the desk',
  created_at: AT,
};
const NOT_FOUND =
  "Another user's endpoint, a deleted or unknown one and a webhookId that is not a UUID all answer 404 `webhook not found`.";

/** Webhooks (issue 58; decisions section 8): endpoints, test deliveries, the delivery log. */
export const WEBHOOK_OPERATIONS: Record<string, OperationAnswers> = {
  'post /api/v1/webhooks': {
    operationId: 'createWebhook',
    description: `Registers an endpoint that receives the caller's events of the types named, by the Standard Webhooks specification (headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`; body \`{type, timestamp, data}\`), or as a chat message (\`format\` discord, slack, telegram). \`url\`: an absolute \`https:\` URL of at most 2048 characters, without credentials, whose host resolves to public addresses only (a loopback, private or link-local address is refused, naming it, unless the operator allows them with WEBHOOKS_ALLOW_PRIVATE_ADDRESSES, which admits \`http:\` too); for \`telegram\`, \`https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id>\`. The answer carries the signing \`secret\` (\`whsec_...\`), shown this once: it is stored sealed and never shown again. At most ${MAX_WEBHOOK_ENDPOINTS_PER_USER} endpoints per user (409 webhook_cap_exceeded). A refused request stores nothing. Scope webhooks:write.`,
    requestExample: {
      url: URL,
      events: ['trade.status_changed', 'trade.fill'],
      format: 'standard',
      description: 'trade alerts for the desk',
    },
    successes: [
      {
        status: 201,
        description: 'registered; the signing secret is in this answer only',
        schema: ref('WebhookCreated'),
        example: { ...ENDPOINT, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      },
    ],
    errors: [...API_KEY_OR_JWT, ...WITH_BODY, 'webhook_cap_exceeded'],
  },
  'get /api/v1/webhooks': {
    operationId: 'listWebhooks',
    description:
      "The caller's webhook endpoints, oldest first, each with how its deliveries fare (`status`); never a secret. Scope webhooks:read.",
    successes: [
      {
        status: 200,
        description: "the caller's endpoints",
        schema: ref('WebhookList'),
        example: {
          webhooks: [
            {
              ...ENDPOINT,
              status: 'active',
              failing_since: null,
              disabled_at: null,
              disabled_reason: null,
            },
          ],
        },
      },
    ],
    errors: API_KEY_OR_JWT,
  },
  'get /api/v1/webhooks/{webhookId}': {
    operationId: 'getWebhook',
    description: `One of the caller's webhook endpoints: \`status\` \`active\`, \`failing\` (deliveries failing since \`failing_since\`, retried) or \`disabled\` (failing too long: sent nothing more, \`disabled_reason\` says why; delete it and register it again). Never the secret. ${NOT_FOUND} Scope webhooks:read.`,
    successes: [
      {
        status: 200,
        description: 'the endpoint',
        schema: ref('Webhook'),
        example: {
          ...ENDPOINT,
          status: 'failing',
          failing_since: '2026-01-05T10:02:11.000Z',
          disabled_at: null,
          disabled_reason: null,
        },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'webhook_not_found'],
  },
  'delete /api/v1/webhooks/{webhookId}': {
    operationId: 'deleteWebhook',
    description: `Deletes one of the caller's endpoints: nothing more is sent to it and its pending deliveries are canceled; from then on it and its deliveries answer 404. ${NOT_FOUND} Scope webhooks:write.`,
    successes: [{ status: 204, description: 'deleted; its pending deliveries canceled' }],
    errors: [...API_KEY_OR_JWT, 'webhook_not_found'],
  },
  'post /api/v1/webhooks/{webhookId}/test': {
    operationId: 'testWebhook',
    description: `Owes the endpoint a \`webhook.test\` delivery (body \`{type: "webhook.test", timestamp, data: {webhook_id, message: "test"}}\`), sent, signed and retried like any other; its \`message_id\` shows on the endpoint's deliveries at once. A disabled endpoint is sent nothing: 409 webhook_disabled. ${NOT_FOUND} Scope webhooks:write.`,
    successes: [
      {
        status: 202,
        description: 'the test delivery is owed; the dispatcher sends it',
        schema: ref('WebhookTestSent'),
        example: { message_id: 'msg_2b8e0f6c1d5a4e3f9a7b6c5d4e3f2a1b' },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'webhook_not_found', 'webhook_disabled'],
  },
  'get /api/v1/webhooks/{webhookId}/deliveries': {
    operationId: 'listWebhookDeliveries',
    description: `The endpoint's deliveries, newest first: each with its \`message_id\` (the \`webhook-id\` of every attempt), status, attempts, each attempt's answer (status code, error, duration) and when the next attempt is due. \`limit\` 1 to 200 (default 50); \`before\` a delivery id (\`next_before\` of the previous page, present when older deliveries follow). ${NOT_FOUND} Scope webhooks:read.`,
    successes: [
      {
        status: 200,
        description: 'a page of deliveries, newest first',
        schema: ref('WebhookDeliveries'),
        example: {
          deliveries: [
            {
              id: '1043',
              message_id: 'msg_2b8e0f6c1d5a4e3f9a7b6c5d4e3f2a1b',
              event_type: 'trade.fill',
              status: 'pending',
              attempts: 1,
              attempt_log: [
                {
                  at: '2026-01-05T10:02:11.000Z',
                  status_code: 503,
                  error: 'answered 503',
                  duration_ms: 184,
                },
              ],
              next_attempt_at: '2026-01-05T10:02:16.000Z',
              created_at: '2026-01-05T10:02:10.950Z',
              finished_at: null,
            },
          ],
          next_before: '1043',
        },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'webhook_not_found'],
  },
};
