import { GatewayHarness } from '@sts/app-gateway-testing';
import type { TestUser } from '@sts/testing';
import { StsApiError, StsClient, StsNetworkError, type Webhook } from '../src';

jest.setTimeout(60_000);

/**
 * A public address, so the gateway's address rule passes without a name
 * server; nothing is delivered (no dispatcher runs beside the harness).
 */
const PUBLIC_URL = 'https://93.184.215.14/hooks/sts';
const WEBHOOK_SCOPES = 'webhooks:read,webhooks:write';

/**
 * The SDK's webhook calls (issue 58) against a gateway: the create and its
 * secret shown once, the reads, a test delivery on the delivery log paged
 * with limit and before, delete, typed refusals, and a create that is sent
 * once even when its answer is lost.
 */
describe('SDK webhooks against a gateway', () => {
  const gateway = new GatewayHarness();
  let alice: TestUser;

  beforeAll(async () => {
    await gateway.start();
    alice = await gateway.userWithKey(WEBHOOK_SCOPES);
  });
  afterAll(() => gateway.stop());

  const clientOf = (user: TestUser, options: { fetch?: typeof fetch } = {}) =>
    new StsClient({ baseUrl: gateway.baseUrl, apiKey: user.apiKey, ...options });

  it('creates an endpoint with its secret once, reads it back without, tests it and deletes it', async () => {
    const sts = clientOf(alice);
    const created = await sts.createWebhook({
      url: PUBLIC_URL,
      events: ['trade.status_changed', 'trade.fill'],
      description: 'desk alerts',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: PUBLIC_URL,
      events: ['trade.status_changed', 'trade.fill'],
      // The API's default when the request names none.
      format: 'standard',
      description: 'desk alerts',
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });

    const { secret: _secret, ...shown } = created;
    const expected: Webhook = {
      ...shown,
      status: 'active',
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
    };
    expect(await sts.webhook(created.id)).toEqual(expected);
    const listed = await sts.webhooks();
    expect(listed).toEqual([expected]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const sent = await sts.testWebhook(created.id);
    expect(sent).toEqual({ message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
    expect(await sts.webhookDeliveries(created.id)).toEqual({
      deliveries: [
        {
          id: expect.any(String),
          message_id: sent.message_id,
          event_type: 'webhook.test',
          status: 'pending',
          attempts: 0,
          attempt_log: [],
          next_attempt_at: expect.any(String),
          created_at: expect.any(String),
          finished_at: null,
        },
      ],
    });

    await expect(sts.deleteWebhook(created.id)).resolves.toBeUndefined();
    const gone = await sts.webhook(created.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(StsApiError);
    expect(gone).toMatchObject({ status: 404, code: 'webhook_not_found' });
    expect(await sts.webhooks()).toEqual([]);
  });

  it('pages the deliveries newest first with limit and before', async () => {
    const sts = clientOf(await gateway.userWithKey(WEBHOOK_SCOPES));
    const { id } = await sts.createWebhook({ url: PUBLIC_URL, events: ['system.kill_switch'] });
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      sent.push((await sts.testWebhook(id)).message_id);
    }
    const first = await sts.webhookDeliveries(id, { limit: 2 });
    expect(first.deliveries.map((delivery) => delivery.message_id)).toEqual([sent[2], sent[1]]);
    expect(first.next_before).toBe(first.deliveries[1]!.id);
    const rest = await sts.webhookDeliveries(id, { limit: 2, before: first.next_before });
    expect(rest.deliveries.map((delivery) => delivery.message_id)).toEqual([sent[0]]);
    expect(rest.next_before).toBeUndefined();
  });

  it('raises typed refusals: a 400 naming the field, 403 without webhooks:write', async () => {
    const sts = clientOf(alice);
    const refused = await sts
      .createWebhook({ url: 'http://93.184.215.14/sts', events: ['trade.fill'] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StsApiError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((refused as StsApiError).body.error).toMatch(/must be an https: URL/);

    const reader = clientOf(await gateway.userWithKey('webhooks:read'));
    expect(await reader.webhooks()).toEqual([]);
    const forbidden = await reader
      .createWebhook({ url: PUBLIC_URL, events: ['trade.fill'] })
      .catch((error: unknown) => error);
    expect(forbidden).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('sends a create once: an answer lost is a network error, never a second endpoint', async () => {
    const user = await gateway.userWithKey(WEBHOOK_SCOPES);
    let posts = 0;
    const lossyFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // The gateway registers the endpoint; its answer, and the secret in it, are lost.
      if (init?.method === 'POST') {
        posts += 1;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    const lost = await clientOf(user, { fetch: lossyFetch })
      .createWebhook({ url: PUBLIC_URL, events: ['trade.failed'] })
      .catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(StsNetworkError);
    expect(posts).toBe(1);
    expect(await clientOf(user).webhooks()).toHaveLength(1);
  });
});
