import type { Webhook, WebhookCreated, WebhookDeliveries } from '@sts/sdk';
import {
  createRequestOf,
  deliveriesText,
  webhookCreatedText,
  webhookDetails,
  webhooksText,
} from '../src/commands/webhooks';

/** The OpenAPI document's example of POST /webhooks' answer. */
const CREATED: WebhookCreated = {
  id: '3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57',
  url: 'https://hooks.example.com/sts',
  events: ['trade.status_changed', 'trade.fill'],
  format: 'standard',
  description: 'trade alerts for the desk',
  created_at: '2026-01-05T09:30:00.000Z',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};
const { secret: _secret, ...READ } = CREATED;
const ACTIVE: Webhook = {
  ...READ,
  status: 'active',
  failing_since: null,
  disabled_at: null,
  disabled_reason: null,
};
const DISABLED: Webhook = {
  ...ACTIVE,
  id: '9a1d0c7e-2b4f-4e1a-8c3d-5f6a7b8c9d0e',
  url: 'https://hooks.slack.com/services/T000/B000/XXXX',
  events: ['system.kill_switch'],
  format: 'slack',
  description: '',
  status: 'disabled',
  failing_since: '2026-01-05T10:00:00.000Z',
  disabled_at: '2026-01-10T10:00:00.000Z',
  disabled_reason: 'failing for 5 days',
};

describe('sts webhooks output', () => {
  it('prints the created endpoint with its secret, and says it is shown once', () => {
    expect(webhookCreatedText(CREATED)).toBe(
      [
        'webhook      3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57',
        'url          https://hooks.example.com/sts',
        'events       trade.status_changed, trade.fill',
        'format       standard',
        'description  trade alerts for the desk',
        'created      2026-01-05T09:30:00.000Z',
        'secret       whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'This secret is shown once: store it now. No command shows it again; if it is lost, delete the webhook and add it again.',
        '',
      ].join('\n'),
    );
  });

  it('lists the endpoints as a table with their status', () => {
    expect(webhooksText([ACTIVE, DISABLED])).toBe(
      [
        'ID                                    STATUS    FORMAT    EVENTS                           URL                                              DESCRIPTION',
        '3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57  active    standard  trade.status_changed,trade.fill  https://hooks.example.com/sts                    trade alerts for the desk',
        '9a1d0c7e-2b4f-4e1a-8c3d-5f6a7b8c9d0e  disabled  slack     system.kill_switch               https://hooks.slack.com/services/T000/B000/XXXX',
        '',
      ].join('\n'),
    );
    expect(webhooksText([])).toBe('no webhooks\n');
  });

  it('shows one endpoint, its status in words: since when it fails, why it was disabled', () => {
    expect(webhookDetails(ACTIVE)).toBe(
      [
        'webhook      3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57',
        'url          https://hooks.example.com/sts',
        'status       active',
        'events       trade.status_changed, trade.fill',
        'format       standard',
        'description  trade alerts for the desk',
        'created      2026-01-05T09:30:00.000Z',
        '',
      ].join('\n'),
    );
    const failing: Webhook = {
      ...ACTIVE,
      status: 'failing',
      failing_since: '2026-01-05T10:00:00.000Z',
    };
    expect(webhookDetails(failing)).toMatch(
      /^status {7}failing since 2026-01-05T10:00:00\.000Z \(deliveries retried\)$/m,
    );
    expect(webhookDetails(DISABLED)).toMatch(
      /^status {7}disabled at 2026-01-10T10:00:00\.000Z: failing for 5 days \(sent nothing more; delete it and add it again\)$/m,
    );
    expect(webhookDetails(DISABLED)).toMatch(/^description {2}-$/m);
    expect(webhookDetails(ACTIVE)).not.toContain('whsec_');
  });

  it('prints the deliveries newest first: attempts, the last answer, the next retry, the next page', () => {
    const page: WebhookDeliveries = {
      deliveries: [
        {
          id: '1044',
          message_id: 'msg_3c8d4a0b5e6f708192a3b4c5d6e7f809',
          event_type: 'webhook.test',
          status: 'pending',
          attempts: 0,
          attempt_log: [],
          next_attempt_at: '2026-01-05T10:03:00.000Z',
          created_at: '2026-01-05T10:03:00.000Z',
          finished_at: null,
        },
        {
          id: '1043',
          message_id: 'msg_2b7c3f9a4d5e6f708192a3b4c5d6e7f8',
          event_type: 'trade.status_changed',
          status: 'pending',
          attempts: 2,
          attempt_log: [
            {
              at: '2026-01-05T10:02:11.000Z',
              status_code: 503,
              error: 'answered 503',
              duration_ms: 184,
            },
            {
              at: '2026-01-05T10:02:16.000Z',
              status_code: null,
              error: 'timed out after 10000 ms',
              duration_ms: 10000,
            },
          ],
          next_attempt_at: '2026-01-05T10:07:16.000Z',
          created_at: '2026-01-05T10:02:11.000Z',
          finished_at: null,
        },
        {
          id: '1042',
          message_id: 'msg_1a6b2e8f3c4d5e6f708192a3b4c5d6e7',
          event_type: 'trade.fill',
          status: 'delivered',
          attempts: 1,
          attempt_log: [
            { at: '2026-01-05T10:01:00.000Z', status_code: 200, error: null, duration_ms: 41 },
          ],
          next_attempt_at: null,
          created_at: '2026-01-05T10:01:00.000Z',
          finished_at: '2026-01-05T10:01:00.041Z',
        },
      ],
      next_before: '1042',
    };
    expect(deliveriesText(CREATED.id, page)).toBe(
      [
        'DELIVERY  EVENT                 STATUS     ATTEMPTS  LAST CODE  NEXT ATTEMPT              CREATED                   MESSAGE                               LAST ERROR',
        '    1044  webhook.test          pending           0          -  2026-01-05T10:03:00.000Z  2026-01-05T10:03:00.000Z  msg_3c8d4a0b5e6f708192a3b4c5d6e7f809',
        '    1043  trade.status_changed  pending           2          -  2026-01-05T10:07:16.000Z  2026-01-05T10:02:11.000Z  msg_2b7c3f9a4d5e6f708192a3b4c5d6e7f8  timed out after 10000 ms',
        '    1042  trade.fill            delivered         1        200  -                         2026-01-05T10:01:00.000Z  msg_1a6b2e8f3c4d5e6f708192a3b4c5d6e7',
        'older deliveries: sts webhooks deliveries 3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57 --before 1042',
        '',
      ].join('\n'),
    );
    expect(deliveriesText(CREATED.id, { deliveries: [] })).toBe('no deliveries\n');
  });

  it('reads the create from flags: events comma-separated, format and description only when given', () => {
    expect(
      createRequestOf({ url: 'https://h.example/x', events: 'trade.fill, trade.failed,' }),
    ).toEqual({
      url: 'https://h.example/x',
      events: ['trade.fill', 'trade.failed'],
    });
    expect(
      createRequestOf({
        url: 'https://h.example/x',
        events: 'system.maintenance',
        format: 'discord',
        description: 'ops',
      }),
    ).toEqual({
      url: 'https://h.example/x',
      events: ['system.maintenance'],
      format: 'discord',
      description: 'ops',
    });
  });
});
