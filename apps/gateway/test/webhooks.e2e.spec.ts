import { randomUUID } from 'node:crypto';
import {
  MAX_WEBHOOK_ENDPOINTS_PER_USER,
  WEBHOOK_EVENT_TYPES,
  webhookSecretContext,
} from '@sts/persistence';
import { CredentialCipher } from '@sts/platform';
import type { TestUser } from '@sts/testing';
import { Webhook } from 'standardwebhooks';
import { GatewayHarness, type HttpResult } from './gateway-harness';

jest.setTimeout(60_000);

/**
 * A public address, so the address rule passes without a name server (the
 * machine running the specs may have none). Nothing is delivered here: no
 * dispatcher runs beside the harness.
 */
const PUBLIC_URL = 'https://93.184.215.14/hooks/sts';
const WEBHOOK_SCOPES = 'webhooks:read,webhooks:write';
const SECRET = /^whsec_([A-Za-z0-9+/]{32})$/;

/**
 * Webhook endpoints (issue 58) through the public API: the create and its
 * secret, reads scoped per user, every refusal storing nothing, private
 * addresses refused unless the operator allows them (a second gateway with
 * WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true), scopes, delete, the cap, and test
 * deliveries on the delivery log.
 */
describe('webhooks: /api/v1/webhooks', () => {
  const gateway = new GatewayHarness();
  const local = new GatewayHarness();
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    await Promise.all([
      gateway.start(),
      local.start({ env: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' } }),
    ]);
    alice = await gateway.userWithKey(WEBHOOK_SCOPES);
    bob = await gateway.userWithKey(WEBHOOK_SCOPES);
  });
  afterAll(() => Promise.all([gateway.stop(), local.stop()]));

  const as = (user: TestUser) => ({ 'x-api-key': user.apiKey });
  const call = (
    user: TestUser,
    method: string,
    path: string,
    body?: unknown,
    on: GatewayHarness = gateway,
  ): Promise<HttpResult> => on.request(method, path, { headers: as(user), body });
  const create = (user: TestUser, body: Record<string, unknown>, on = gateway) =>
    call(user, 'POST', '/api/v1/webhooks', body, on);
  const valid = (overrides: Record<string, unknown> = {}) => ({
    url: PUBLIC_URL,
    events: ['trade.status_changed', 'trade.fill'],
    ...overrides,
  });
  const storedOf = async (user: TestUser, on = gateway): Promise<number> =>
    (
      await on.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = $1',
        [user.userId],
      )
    )[0]!.n;

  describe('create and read', () => {
    let created: HttpResult;

    beforeAll(async () => {
      created = await create(alice, valid({ description: 'desk alerts' }));
    });

    it('answers 201 with the endpoint and its whsec_ signing secret', () => {
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: PUBLIC_URL,
        events: ['trade.status_changed', 'trade.fill'],
        format: 'standard',
        description: 'desk alerts',
        created_at: expect.any(String),
        secret: expect.stringMatching(SECRET),
      });
      // Standard Webhooks: whsec_ and the base64 of the key's bytes (24 here).
      const key = SECRET.exec(created.body.secret)![1]!;
      expect(Buffer.from(key, 'base64')).toHaveLength(24);
    });

    it('is a secret the Standard Webhooks library signs and verifies with, as it stands', () => {
      const receiver = new Webhook(created.body.secret);
      const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString() });
      const headers = {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      };
      const signature = receiver.sign('msg_1', new Date(), body);
      expect(receiver.verify(body, { ...headers, 'webhook-signature': signature })).toEqual(
        JSON.parse(body),
      );
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(24).toString('base64')}`).verify(body, {
          ...headers,
          'webhook-signature': signature,
        }),
      ).toThrow();
    });

    it('never shows the secret again: GET one, the list', async () => {
      const one = await call(alice, 'GET', `/api/v1/webhooks/${created.body.id}`);
      expect(one.status).toBe(200);
      const { secret: _secret, ...shown } = created.body;
      expect(one.body).toEqual({
        ...shown,
        status: 'active',
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
      });
      const list = await call(alice, 'GET', '/api/v1/webhooks');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ webhooks: [one.body] });
      expect(JSON.stringify([one.body, list.body])).not.toContain(created.body.secret);
    });

    it('keeps the secret sealed with the webhook key under its user and endpoint, and out of the log', async () => {
      const [row] = await gateway.query<{ sealed_secret: Buffer; kek_id: string }>(
        'SELECT sealed_secret, kek_id FROM webhook_endpoints WHERE id = $1',
        [created.body.id],
      );
      const key = SECRET.exec(created.body.secret)![1]!;
      expect(row!.sealed_secret.toString('latin1')).not.toContain(created.body.secret);
      expect(row!.sealed_secret.includes(Buffer.from(key, 'base64'))).toBe(false);
      // WEBHOOK_SECRETS_KEK's default id, and its key alone opens it: not CREDENTIALS_KEK.
      expect(row!.kek_id).toBe('w1');
      const cipher = CredentialCipher.fromSettings(row!.kek_id, gateway.webhookKek);
      const sealed = { sealed: row!.sealed_secret, kekId: row!.kek_id };
      const credentialsCipher = CredentialCipher.fromSettings(row!.kek_id, gateway.kek);
      expect(() =>
        credentialsCipher.openText(sealed, webhookSecretContext(alice.userId, created.body.id)),
      ).toThrow();
      expect(cipher.openText(sealed, webhookSecretContext(alice.userId, created.body.id))).toBe(
        created.body.secret,
      );
      expect(() =>
        cipher.openText(sealed, webhookSecretContext(bob.userId, created.body.id)),
      ).toThrow();
      expect(gateway.logs()).not.toContain(created.body.secret);
    });

    it('normalizes the URL as it will be called, and takes every event type and format', async () => {
      const all = await create(
        alice,
        valid({ url: 'https://93.184.215.14', events: [...WEBHOOK_EVENT_TYPES], format: 'slack' }),
      );
      expect(all.status).toBe(201);
      expect(all.body).toMatchObject({
        url: 'https://93.184.215.14/',
        events: [...WEBHOOK_EVENT_TYPES],
        format: 'slack',
        description: '',
      });
    });

    it('is scoped to its user: another user’s endpoint, an unknown id and a non-UUID are one 404', async () => {
      const id = created.body.id;
      const notFound = { error: 'webhook not found', code: 'webhook_not_found' };
      for (const [user, method, path] of [
        [bob, 'GET', `/api/v1/webhooks/${id}`],
        [bob, 'GET', `/api/v1/webhooks/${id}/deliveries`],
        [bob, 'POST', `/api/v1/webhooks/${id}/test`],
        [bob, 'DELETE', `/api/v1/webhooks/${id}`],
        [alice, 'GET', `/api/v1/webhooks/${randomUUID()}`],
        [alice, 'GET', '/api/v1/webhooks/not-a-uuid'],
        [alice, 'DELETE', '/api/v1/webhooks/not-a-uuid'],
        [alice, 'POST', '/api/v1/webhooks/not-a-uuid/test'],
        [alice, 'GET', '/api/v1/webhooks/not-a-uuid/deliveries'],
      ] as const) {
        const answer = await call(user, method, path);
        expect({ method, path, status: answer.status, body: answer.body }).toEqual({
          method,
          path,
          status: 404,
          body: notFound,
        });
      }
      expect((await call(bob, 'GET', '/api/v1/webhooks')).body).toEqual({ webhooks: [] });
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}`)).status).toBe(200);
    });

    it('shows how deliveries fare: failing, then disabled with its reason', async () => {
      const id = (await create(alice, valid())).body.id;
      await gateway.query(
        `UPDATE webhook_endpoints SET failing_since = '2026-01-05T10:00:00Z' WHERE id = $1`,
        [id],
      );
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}`)).body).toMatchObject({
        status: 'failing',
        failing_since: '2026-01-05T10:00:00.000Z',
        disabled_at: null,
      });
      await gateway.query(
        `UPDATE webhook_endpoints SET disabled_at = '2026-01-10T10:00:00Z',
           disabled_reason = 'failing for 5 days' WHERE id = $1`,
        [id],
      );
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}`)).body).toMatchObject({
        status: 'disabled',
        disabled_at: '2026-01-10T10:00:00.000Z',
        disabled_reason: 'failing for 5 days',
      });
      // A disabled endpoint is sent nothing: a test would never leave.
      const test = await call(alice, 'POST', `/api/v1/webhooks/${id}/test`);
      expect(test.status).toBe(409);
      expect(test.body.code).toBe('webhook_disabled');
      expect(test.body.error).toContain('failing for 5 days');
    });
  });

  describe('refusals: 400 invalid_request, nothing stored', () => {
    let carol: TestUser;
    beforeAll(async () => {
      carol = await gateway.userWithKey(WEBHOOK_SCOPES);
    });

    it.each([
      ['a URL that is not absolute', valid({ url: 'hooks.example.com/sts' }), /absolute URL/],
      ['a URL over 2048 characters', valid({ url: `${PUBLIC_URL}/${'a'.repeat(2048)}` }), /2048/],
      ['a URL that is not a string', valid({ url: 42 }), /url must be a string/],
      ['plain http:', valid({ url: 'http://93.184.215.14/sts' }), /must be an https: URL/],
      ['http: to loopback', valid({ url: 'http://127.0.0.1:8080/sts' }), /must be an https: URL/],
      ['another scheme', valid({ url: 'ftp://93.184.215.14/sts' }), /must be an https: URL/],
      [
        'credentials in the URL',
        valid({ url: 'https://user:pass@93.184.215.14/sts' }),
        /must not carry credentials/,
      ],
      [
        'a loopback address',
        valid({ url: 'https://127.0.0.1/sts' }),
        /url: 127\.0\.0\.1 is not a public address/,
      ],
      [
        'a private address',
        valid({ url: 'https://10.0.0.1/sts' }),
        /url: 10\.0\.0\.1 is not a public address/,
      ],
      [
        'a link-local address (cloud metadata)',
        valid({ url: 'https://169.254.169.254/latest' }),
        /url: 169\.254\.169\.254 is not a public address/,
      ],
      ['an IPv6 loopback', valid({ url: 'https://[::1]/sts' }), /url: ::1 is not a public address/],
      [
        'a name that resolves to loopback',
        valid({ url: 'https://localhost/sts' }),
        /url: localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
      ],
      [
        'an unknown event',
        valid({ events: ['trade.fill', 'trade.exploded'] }),
        /events must be among/,
      ],
      ['no events', valid({ events: [] }), /events must name at least one event type/],
      ['events missing', { url: PUBLIC_URL }, /events must be an array/],
      ['events not an array', valid({ events: 'trade.fill' }), /events must be an array/],
      [
        'an event twice',
        valid({ events: ['trade.fill', 'trade.fill'] }),
        /events must not name an event type twice/,
      ],
      ['an unknown format', valid({ format: 'teams' }), /format must be one of/],
      ['a null format', valid({ format: null }), /format must be one of/],
      [
        'a telegram URL without chat_id',
        valid({
          format: 'telegram',
          url: 'https://93.184.215.14/bot123456:AAH-x_y9/sendMessage',
        }),
        /telegram webhook's url must be https:\/\/api\.telegram\.org\/bot<token>\/sendMessage\?chat_id=<chat id>/,
      ],
      [
        'a telegram URL that is not sendMessage',
        valid({ format: 'telegram', url: PUBLIC_URL }),
        /Telegram Bot API sendMessage URL with a chat_id/,
      ],
      [
        'a description over 256 characters',
        valid({ description: 'x'.repeat(257) }),
        /description must be at most 256 characters/,
      ],
      ['a description that is not text', valid({ description: 7 }), /description must be a string/],
      ['an unknown field', valid({ secret: 'whsec_mine' }), /property secret should not exist/],
    ])('%s', async (_case, body, message) => {
      const refused = await create(carol, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: expect.stringMatching(message),
        code: 'invalid_request',
      });
      expect(await storedOf(carol)).toBe(0);
    });

    it('accepts the same private addresses, and http:, where the operator allows them', async () => {
      const dev = await local.userWithKey(WEBHOOK_SCOPES);
      for (const url of [
        'http://127.0.0.1:8080/sts',
        'https://10.0.0.1/sts',
        'http://localhost:9000/hook',
      ]) {
        const accepted = await create(dev, valid({ url }), local);
        expect({ url, status: accepted.status }).toEqual({ url, status: 201 });
      }
      // The other rules still hold.
      for (const url of ['ftp://127.0.0.1/sts', 'http://u:p@127.0.0.1/sts']) {
        expect((await create(dev, valid({ url }), local)).status).toBe(400);
      }
      expect(await storedOf(dev, local)).toBe(3);
    });

    it('takes a Telegram Bot API sendMessage URL with its chat_id', async () => {
      const dev = await local.userWithKey(WEBHOOK_SCOPES);
      const url = 'https://api.telegram.org/bot123456:AAH-x_y9/sendMessage?chat_id=-1001234';
      const accepted = await create(dev, valid({ url, format: 'telegram' }), local);
      expect(accepted.status).toBe(201);
      expect(accepted.body).toMatchObject({ url, format: 'telegram' });
    });
  });

  describe('scopes', () => {
    it('webhooks:read reads; POST and DELETE need webhooks:write (403 insufficient_scope)', async () => {
      const id = (await create(alice, valid())).body.id;
      const reader = await gateway.userWithKey('webhooks:read');
      expect((await call(reader, 'GET', '/api/v1/webhooks')).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/api/v1/webhooks', valid()],
        ['DELETE', `/api/v1/webhooks/${id}`, undefined],
        ['POST', `/api/v1/webhooks/${id}/test`, undefined],
      ] as const) {
        const refused = await call(reader, method, path, body);
        expect({ method, path, status: refused.status, code: refused.body.code }).toEqual({
          method,
          path,
          status: 403,
          code: 'insufficient_scope',
        });
      }
      expect(await storedOf(reader)).toBe(0);
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}`)).status).toBe(200);
    });

    it('a key without webhooks:read reads nothing', async () => {
      const trader = await gateway.userWithKey('trades:read,trades:write,account:read');
      for (const path of ['/api/v1/webhooks', `/api/v1/webhooks/${randomUUID()}/deliveries`]) {
        const refused = await call(trader, 'GET', path);
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('insufficient_scope');
      }
    });

    it('a browser session holds both scopes', async () => {
      const token = await gateway.jwks.sign({
        sub: `idp|webhooks-${randomUUID()}`,
        wallet_address: `0x${'ab'.repeat(20)}`,
      });
      const headers = { authorization: `Bearer ${token}` };
      expect((await gateway.request('POST', '/api/v1/auth/verify', { headers })).status).toBe(200);
      const created = await gateway.request('POST', '/api/v1/webhooks', { headers, body: valid() });
      expect(created.status).toBe(201);
      const listed = await gateway.request('GET', '/api/v1/webhooks', { headers });
      expect(listed.body.webhooks).toHaveLength(1);
    });
  });

  describe('delete', () => {
    it('answers 204, then the endpoint is 404 and gone from the list; its pending deliveries are canceled', async () => {
      const id = (await create(alice, valid())).body.id;
      expect((await call(alice, 'POST', `/api/v1/webhooks/${id}/test`)).status).toBe(202);
      const deleted = await call(alice, 'DELETE', `/api/v1/webhooks/${id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}`)).status).toBe(404);
      expect((await call(alice, 'GET', `/api/v1/webhooks/${id}/deliveries`)).status).toBe(404);
      expect((await call(alice, 'DELETE', `/api/v1/webhooks/${id}`)).status).toBe(404);
      const listed = await call(alice, 'GET', '/api/v1/webhooks');
      expect(listed.body.webhooks.map((one: { id: string }) => one.id)).not.toContain(id);
      expect(
        await gateway.query(
          'SELECT status, finished_at IS NOT NULL AS finished FROM webhook_deliveries WHERE endpoint_id = $1',
          [id],
        ),
      ).toEqual([{ status: 'canceled', finished: true }]);
    });
  });

  describe(`the cap: ${MAX_WEBHOOK_ENDPOINTS_PER_USER} endpoints per user`, () => {
    it('refuses one more with 409 webhook_cap_exceeded, nothing stored; a delete makes room', async () => {
      const dave = await gateway.userWithKey(WEBHOOK_SCOPES);
      const ids: string[] = [];
      for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_USER; i += 1) {
        const created = await create(dave, valid({ description: `#${i}` }));
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
      const refused = await create(dave, valid());
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: `max ${MAX_WEBHOOK_ENDPOINTS_PER_USER} webhooks per user: you already have ${MAX_WEBHOOK_ENDPOINTS_PER_USER}; delete one before adding another`,
        code: 'webhook_cap_exceeded',
      });
      expect(await storedOf(dave)).toBe(MAX_WEBHOOK_ENDPOINTS_PER_USER);
      // Another user is not held by Dave's cap.
      expect((await create(bob, valid())).status).toBe(201);
      expect((await call(dave, 'DELETE', `/api/v1/webhooks/${ids[0]}`)).status).toBe(204);
      expect((await create(dave, valid())).status).toBe(201);
    });

    it('holds under concurrent creates: one place left, one of twenty accepted', async () => {
      const erin = await gateway.userWithKey(WEBHOOK_SCOPES);
      for (let i = 1; i < MAX_WEBHOOK_ENDPOINTS_PER_USER; i += 1) {
        expect((await create(erin, valid())).status).toBe(201);
      }
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(erin, valid())));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      expect(await storedOf(erin)).toBe(MAX_WEBHOOK_ENDPOINTS_PER_USER);
    });
  });

  describe('test deliveries and the delivery log', () => {
    let id: string;
    beforeAll(async () => {
      id = (await create(alice, valid({ events: ['system.kill_switch'] }))).body.id;
    });
    const deliveries = (query = '') =>
      call(alice, 'GET', `/api/v1/webhooks/${id}/deliveries${query}`);

    it('owes the endpoint a webhook.test delivery: 202 with its message_id, pending on the log', async () => {
      expect((await deliveries()).body).toEqual({ deliveries: [] });
      const sent = await call(alice, 'POST', `/api/v1/webhooks/${id}/test`);
      expect(sent.status).toBe(202);
      expect(sent.body).toEqual({ message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
      const log = await deliveries();
      expect(log.status).toBe(200);
      expect(log.body).toEqual({
        deliveries: [
          {
            id: expect.stringMatching(/^[0-9]+$/),
            message_id: sent.body.message_id,
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
      // The body the dispatcher sends: Standard Webhooks' {type, timestamp, data}.
      const [row] = await gateway.query<{ source: string; payload: Record<string, unknown> }>(
        'SELECT source, payload FROM webhook_deliveries WHERE message_id = $1',
        [sent.body.message_id],
      );
      const uuid = (sent.body.message_id as string).slice('msg_'.length);
      expect(row!.source.replace(/-/g, '')).toBe(`test:${uuid}`);
      expect(row!.payload).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: { webhook_id: id, message: 'test' },
      });
    });

    it('shows each attempt as the dispatcher records it', async () => {
      const [delivery] = (await deliveries()).body.deliveries;
      const attempt = {
        at: '2026-01-05T10:02:11.000Z',
        status_code: 503,
        error: 'answered 503',
        duration_ms: 184,
      };
      await gateway.query(
        `UPDATE webhook_deliveries SET attempts = 1, attempt_log = $2::jsonb,
           next_attempt_at = '2026-01-05T10:02:16Z' WHERE id = $1::bigint`,
        [delivery.id, JSON.stringify([attempt])],
      );
      expect((await deliveries()).body.deliveries[0]).toMatchObject({
        attempts: 1,
        attempt_log: [attempt],
        next_attempt_at: '2026-01-05T10:02:16.000Z',
      });
    });

    it('pages newest first with limit and before', async () => {
      const sent: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        sent.push((await call(alice, 'POST', `/api/v1/webhooks/${id}/test`)).body.message_id);
      }
      const first = await deliveries('?limit=2');
      expect(first.body.deliveries.map((one: { message_id: string }) => one.message_id)).toEqual([
        sent[2],
        sent[1],
      ]);
      expect(first.body.next_before).toBe(first.body.deliveries[1].id);
      const second = await deliveries(`?limit=2&before=${first.body.next_before}`);
      expect(second.body.deliveries.map((one: { message_id: string }) => one.message_id)).toEqual([
        sent[0],
        expect.any(String),
      ]);
      expect(second.body.next_before).toBeUndefined();
      expect((await deliveries()).body.deliveries).toHaveLength(4);
    });

    it.each([
      ['limit=0'],
      ['limit=201'],
      ['limit=ten'],
      ['before=abc'],
      ['before=-1'],
      ['before=1&before=2'],
    ])('refuses ?%s with 400', async (query) => {
      const refused = await deliveries(`?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('invalid_request');
    });
  });
});
