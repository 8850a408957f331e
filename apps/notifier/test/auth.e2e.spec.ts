import { createApiKey, OpsContext } from '@sts/operations';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness } from './notifier-harness';
import { TestClient } from './ws-client';

describe('WebSocket authentication (decisions sections 4 and 5)', () => {
  const harness = new NotifierHarness();
  let notifier: RunningNotifier;
  const clients: TestClient[] = [];
  const track = (client: TestClient): TestClient => {
    clients.push(client);
    return client;
  };
  const secrets: string[] = [];

  beforeAll(async () => {
    await harness.start({ NOTIFIER_AUTH_TIMEOUT_MS: '800', NOTIFIER_AUTH_RECHECK_MS: '300' });
    notifier = await harness.addReplica();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    const logs = harness.logs();
    await harness.stop();
    // Keys and tokens never reach a log line.
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
    }
  });

  describe('X-API-Key header', () => {
    it('opens the socket for a key with trades:read and says who it is', async () => {
      const alice = await harness.user();
      secrets.push(alice.apiKey);
      const client = track(
        await TestClient.connect(notifier.url, { headers: { 'x-api-key': alice.apiKey } }),
      );
      expect(await client.next()).toEqual({
        type: 'authenticated',
        user_id: alice.userId,
        method: 'api_key',
        expires_at: expect.any(String),
      });
      client.send({ op: 'ping', id: 7 });
      expect(await client.next()).toEqual({ type: 'pong', id: 7, timestamp: expect.any(String) });
    });

    it('refuses the upgrade with 401 unauthorized for an unknown, malformed, revoked or expired key', async () => {
      const revoked = await harness.user();
      await harness.ops('api-keys', 'revoke', revoked.keyId);
      const context = new OpsContext(harness.env);
      const expired = await createApiKey(
        context,
        { user: revoked.userId, scopes: 'trades:read', expiresDays: '1' },
        new Date(Date.now() - 2 * 86_400_000),
      );
      await context.close();
      secrets.push(revoked.apiKey, expired.api_key);
      for (const key of [
        `sts_AAAAAAAAAAAA_${'x'.repeat(43)}`,
        'not-a-key',
        revoked.apiKey,
        expired.api_key,
      ]) {
        const refusal = await TestClient.refused(notifier.url, { 'x-api-key': key });
        expect(refusal).toEqual({
          status: 401,
          body: { error: expect.any(String), code: 'unauthorized' },
        });
      }
    });

    it('refuses with 403 insufficient_scope without trades:read, and 403 ip_not_allowed outside the allow-list', async () => {
      const writer = await harness.user('trades:write,account:read');
      expect(await TestClient.refused(notifier.url, { 'x-api-key': writer.apiKey })).toEqual({
        status: 403,
        body: { error: expect.any(String), code: 'insufficient_scope' },
      });
      const fenced = await harness.user('trades:read', ['--allow-ip', '10.0.0.0/8']);
      expect(await TestClient.refused(notifier.url, { 'x-api-key': fenced.apiKey })).toEqual({
        status: 403,
        body: { error: expect.any(String), code: 'ip_not_allowed' },
      });
    });
  });

  describe('first-message auth (browsers)', () => {
    it('accepts {"op":"auth","api_key"} and a subscribe sent right behind it', async () => {
      const alice = await harness.user();
      const tradeId = await harness.trade(alice, 'active');
      const client = track(await TestClient.connect(notifier.url));
      client.send({ op: 'auth', api_key: alice.apiKey });
      client.send({
        op: 'subscribe',
        id: 's',
        subscription: 'trades',
        params: { trade_id: tradeId },
      });
      expect(await client.next()).toMatchObject({ type: 'authenticated', user_id: alice.userId });
      expect(await client.next()).toMatchObject({ type: 'subscribed', id: 's', status: 'active' });
    });

    it('accepts {"op":"auth","token":"<JWT>"} and the same token in an Authorization header', async () => {
      const alice = await harness.user();
      const token = await harness.jwks.sign({ sub: alice.userId, wallet_address: alice.wallet });
      secrets.push(token);
      const byMessage = track(await TestClient.authenticated(notifier.url, { token }));
      expect(byMessage.messages[0]).toMatchObject({
        type: 'authenticated',
        user_id: alice.userId,
        method: 'jwt',
      });
      const byHeader = track(
        await TestClient.connect(notifier.url, { headers: { authorization: `Bearer ${token}` } }),
      );
      expect(await byHeader.next()).toMatchObject({ type: 'authenticated', method: 'jwt' });
    });

    it('closes with 4001 for a bad token, a bad key, a first message that is not auth, and no auth in time', async () => {
      const alice = await harness.user();
      const forged = await harness.jwks.sign(
        { sub: alice.userId },
        { issuer: 'https://evil.example/' },
      );
      const cases: Array<[unknown, string]> = [
        [{ op: 'auth', token: forged }, 'unauthorized'],
        [{ op: 'auth', api_key: `${alice.apiKey.slice(0, -3)}zzz` }, 'unauthorized'],
        [{ op: 'subscribe', subscription: 'trades' }, 'unauthorized'],
        ['not json', 'unauthorized'],
      ];
      for (const [message, reason] of cases) {
        const client = track(await TestClient.connect(notifier.url));
        client.send(message);
        expect(await client.next()).toMatchObject({ type: 'error', code: expect.any(String) });
        expect(await client.closed).toEqual({ code: 4001, reason });
      }
      const silent = track(await TestClient.connect(notifier.url));
      const started = Date.now();
      expect(await silent.closed).toEqual({ code: 4001, reason: 'auth_timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
      expect(silent.messages).toEqual([
        { type: 'error', error: 'no auth message in time', code: 'unauthorized' },
      ]);
    });

    it('closes with 4003 for credentials without trades:read', async () => {
      const writer = await harness.user('trades:write');
      const client = track(await TestClient.connect(notifier.url));
      client.send({ op: 'auth', api_key: writer.apiKey });
      expect(await client.next()).toMatchObject({
        type: 'error',
        code: 'insufficient_scope',
        op: 'auth',
      });
      expect(await client.closed).toEqual({ code: 4003, reason: 'insufficient_scope' });
    });
  });

  describe('live connections', () => {
    it('cuts off every socket of a revoked key within a few seconds (4009), and only those', async () => {
      const alice = await harness.user();
      const keeper = await harness.user();
      const byHeader = track(
        await TestClient.connect(notifier.url, { headers: { 'x-api-key': alice.apiKey } }),
      );
      const byMessage = track(
        await TestClient.authenticated(notifier.url, { api_key: alice.apiKey }),
      );
      const unaffected = track(
        await TestClient.authenticated(notifier.url, { api_key: keeper.apiKey }),
      );
      await byHeader.next((message) => message.type === 'authenticated');

      const revokedAt = Date.now();
      await harness.ops('api-keys', 'revoke', alice.keyId);
      const closes = await Promise.all([byHeader.closed, byMessage.closed]);
      expect(closes).toEqual([
        { code: 4009, reason: 'credentials_revoked' },
        { code: 4009, reason: 'credentials_revoked' },
      ]);
      expect(Date.now() - revokedAt).toBeLessThan(3000);
      unaffected.send({ op: 'ping', id: 'still-here' });
      expect(await unaffected.next((message) => message.id === 'still-here')).toMatchObject({
        type: 'pong',
      });
    });

    it('closes a JWT socket at the token expiry (4009), unless the client refreshed it first', async () => {
      const alice = await harness.user();
      const shortLived = await harness.jwks.sign({ sub: alice.userId }, { expiresInSeconds: 2 });
      const expiring = track(await TestClient.authenticated(notifier.url, { token: shortLived }));
      const refreshed = track(await TestClient.authenticated(notifier.url, { token: shortLived }));
      const renewed = await harness.jwks.sign({ sub: alice.userId }, { expiresInSeconds: 600 });
      refreshed.send({ op: 'auth', id: 'refresh', token: renewed });
      expect(await refreshed.next((message) => message.id === 'refresh')).toMatchObject({
        type: 'authenticated',
      });

      expect(await expiring.closed).toEqual({ code: 4009, reason: 'credentials_expired' });
      refreshed.send({ op: 'ping', id: 'after-expiry' });
      expect(await refreshed.next((message) => message.id === 'after-expiry')).toMatchObject({
        type: 'pong',
      });
    });

    it("refuses a refresh with another user's credentials and keeps the socket as it was", async () => {
      const alice = await harness.user();
      const bob = await harness.user();
      const client = track(await TestClient.authenticated(notifier.url, { api_key: alice.apiKey }));
      client.send({ op: 'auth', id: 'swap', api_key: bob.apiKey });
      expect(await client.next((message) => message.id === 'swap')).toMatchObject({
        type: 'error',
        code: 'unauthorized',
      });
      const aliceTrade = await harness.trade(alice);
      expect(await client.subscribe(aliceTrade)).toMatchObject({ type: 'subscribed' });
    });
  });
});
