import type { Webhook, WebhookDelivery } from '@sts/sdk';
import {
  anyPending,
  createBodyOf,
  endpointHealth,
  lastStatusCode,
  NONE,
  WEBHOOK_EVENTS,
} from './webhook-model';

const ACTIVE: Webhook = {
  id: '3f0c5b1e-7a2d-4c8e-9b61-2d4f8a1c0e57',
  url: 'https://hooks.example.com/sts',
  events: ['trade.status_changed'],
  format: 'standard',
  description: '',
  created_at: '2026-01-05T09:30:00.000Z',
  status: 'active',
  failing_since: null,
  disabled_at: null,
  disabled_reason: null,
};
const PENDING: WebhookDelivery = {
  id: '1043',
  message_id: 'msg_2b7c3f9a4d5e6f708192a3b4c5d6e7f8',
  event_type: 'webhook.test',
  status: 'pending',
  attempts: 0,
  attempt_log: [],
  next_attempt_at: '2026-01-05T10:02:11.000Z',
  created_at: '2026-01-05T10:02:11.000Z',
  finished_at: null,
};
const iso = (time: string) => `<${time}>`;

describe('the webhooks page model', () => {
  it('sends the events ticked in the API’s order, and a description only when written', () => {
    expect(
      createBodyOf({
        url: ' https://hooks.example.com/sts ',
        events: new Set(['system.maintenance', 'trade.fill']),
        format: 'slack',
        description: '  ',
      }),
    ).toEqual({
      url: 'https://hooks.example.com/sts',
      events: ['trade.fill', 'system.maintenance'],
      format: 'slack',
    });
    expect(
      createBodyOf({ url: 'u', events: new Set(), format: 'standard', description: 'desk' }),
    ).toEqual({ url: 'u', events: [], format: 'standard', description: 'desk' });
    expect(WEBHOOK_EVENTS.map(({ type }) => type)).toEqual([
      'trade.status_changed',
      'trade.fill',
      'trade.failed',
      'system.kill_switch',
      'system.maintenance',
    ]);
  });

  it('says how an endpoint fares: nothing when active, since when failing, when and why disabled', () => {
    expect(endpointHealth(ACTIVE, iso)).toBeNull();
    expect(
      endpointHealth(
        { ...ACTIVE, status: 'failing', failing_since: '2026-01-05T10:00:00.000Z' },
        iso,
      ),
    ).toBe('deliveries failing since <2026-01-05T10:00:00.000Z>, retried');
    expect(
      endpointHealth(
        {
          ...ACTIVE,
          status: 'disabled',
          failing_since: '2026-01-05T10:00:00.000Z',
          disabled_at: '2026-01-10T10:00:00.000Z',
          disabled_reason: 'failing for 5 days',
        },
        iso,
      ),
    ).toBe(
      'disabled <2026-01-10T10:00:00.000Z>: failing for 5 days. Nothing more is sent; delete it and add it again.',
    );
  });

  it('shows the newest attempt’s status code: a dash before any, “no answer” when none came', () => {
    expect(lastStatusCode(PENDING)).toBe(NONE);
    const attempt = { at: '2026-01-05T10:02:11.000Z', duration_ms: 184 };
    expect(
      lastStatusCode({
        ...PENDING,
        attempts: 2,
        attempt_log: [
          { ...attempt, status_code: 503, error: 'answered 503' },
          { ...attempt, status_code: null, error: 'timed out after 10000 ms' },
        ],
      }),
    ).toBe('no answer');
    expect(
      lastStatusCode({
        ...PENDING,
        status: 'delivered',
        attempts: 1,
        attempt_log: [{ ...attempt, status_code: 200, error: null }],
      }),
    ).toBe('200');
  });

  it('reads again while a delivery is pending', () => {
    expect(anyPending([PENDING])).toBe(true);
    expect(
      anyPending([
        { ...PENDING, status: 'delivered' },
        { ...PENDING, status: 'failed' },
      ]),
    ).toBe(false);
    expect(anyPending([])).toBe(false);
  });
});
