import { generateKeyPair } from 'jose';
import { createApiKey, OpsContext } from '@sts/operations';
import { GatewayHarness } from './gateway-harness';

describe('authentication (decisions section 4)', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  describe('API keys', () => {
    it('answers 401 unauthorized without credentials, with a malformed key and with an unknown key', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { 'x-api-key': 'not-a-key' },
        { 'x-api-key': `sts_AAAAAAAAAAAA_${'x'.repeat(43)}` },
      ]) {
        const response = await gateway.request('GET', '/api/v1/wallets', { headers });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
      }
    });

    it('accepts a valid key and scopes every read to its user', async () => {
      const alice = await gateway.userWithKey();
      const response = await gateway.request('GET', '/api/v1/wallets', {
        headers: { 'x-api-key': alice.apiKey },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { address: alice.wallet, linked_at: expect.any(String), verified: true },
      ]);
    });

    it('rejects a key whose secret part is wrong even when its prefix exists', async () => {
      const alice = await gateway.userWithKey();
      const forged = alice.apiKey.slice(0, -4) + (alice.apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      const response = await gateway.request('GET', '/api/v1/wallets', {
        headers: { 'x-api-key': forged },
      });
      expect(response.status).toBe(401);
    });

    it('revocation takes effect on the next request', async () => {
      const alice = await gateway.userWithKey();
      const headers = { 'x-api-key': alice.apiKey };
      expect((await gateway.request('GET', '/api/v1/wallets', { headers })).status).toBe(200);
      await gateway.ops('api-keys', 'revoke', alice.keyId);
      const response = await gateway.request('GET', '/api/v1/wallets', { headers });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('unauthorized');
    });

    it('rejects an expired key with 401', async () => {
      const alice = await gateway.userWithKey();
      const context = new OpsContext(gateway.env);
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      const expired = await createApiKey(
        context,
        { user: alice.userId, scopes: 'account:read', expiresDays: '1' },
        twoDaysAgo,
      );
      await context.close();
      const response = await gateway.request('GET', '/api/v1/wallets', {
        headers: { 'x-api-key': expired.api_key },
      });
      expect(response.status).toBe(401);
      expect(response.body.error).toMatch(/expired/);
    });

    it('answers 403 insufficient_scope for a key without the scope', async () => {
      const reader = await gateway.userWithKey('trades:read');
      const response = await gateway.request('GET', '/api/v1/credentials', {
        headers: { 'x-api-key': reader.apiKey },
      });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('insufficient_scope');
    });

    it('answers 403 ip_not_allowed from outside the allow-list and 200 from inside it', async () => {
      const outside = await gateway.userWithKey('account:read', [
        '--allow-ip',
        '10.0.0.0/8,192.168.1.7',
      ]);
      const denied = await gateway.request('GET', '/api/v1/wallets', {
        headers: { 'x-api-key': outside.apiKey },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('ip_not_allowed');

      const inside = await gateway.userWithKey('account:read', [
        '--allow-ip',
        '10.0.0.0/8,127.0.0.0/8',
      ]);
      const allowed = await gateway.request('GET', '/api/v1/wallets', {
        headers: { 'x-api-key': inside.apiKey },
      });
      expect(allowed.status).toBe(200);
    });

    it('answers 403 session_required when an API key calls a browser-session-only endpoint', async () => {
      const alice = await gateway.userWithKey();
      const headers = { 'x-api-key': alice.apiKey };
      const calls: Array<[string, string, unknown?]> = [
        ['POST', '/api/v1/auth/verify'],
        [
          'POST',
          '/api/v1/wallets/link',
          { address: alice.wallet, nonce: 'x'.repeat(20), signature: '0x' },
        ],
        ['DELETE', `/api/v1/wallets/${alice.wallet}`],
        [
          'POST',
          '/api/v1/credentials/hyperliquid',
          { wallet_addr: alice.wallet, api_key: 'k', api_secret: 's' },
        ],
        ['DELETE', `/api/v1/credentials/hyperliquid/${alice.wallet}`],
      ];
      for (const [method, path, body] of calls) {
        const response = await gateway.request(method, path, { headers, body });
        expect({ path, status: response.status, code: response.body.code }).toEqual({
          path,
          status: 403,
          code: 'session_required',
        });
      }
    });
  });

  describe('browser-session JWTs', () => {
    const claims = {
      sub: 'user-jwt-1',
      wallet_address: '0x1111111111111111111111111111111111111111',
    };
    const verify = (token: string) =>
      gateway.request('POST', '/api/v1/auth/verify', {
        headers: { authorization: `Bearer ${token}` },
      });

    it('accepts a token signed by a key from the JWKS and bootstraps the account', async () => {
      const response = await verify(await gateway.jwks.sign(claims));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        user_id: 'user-jwt-1',
        wallet_address: claims.wallet_address,
        scopes: expect.arrayContaining(['trades:read', 'trades:write', 'account:read']),
      });
      const again = await verify(await gateway.jwks.sign(claims));
      expect(again.body.new_account).toBe(false);
    });

    it.each([
      [
        'expired',
        () => gateway.jwks.sign(claims, { issuedAtOffsetSeconds: -3600, expiresInSeconds: 900 }),
      ],
      ['no exp', () => gateway.jwks.sign(claims, { expiresInSeconds: null })],
      [
        'a lifetime over the 10 hours allowed by default',
        () => gateway.jwks.sign(claims, { expiresInSeconds: 36_100 }),
      ],
      [
        'no iat and an exp eleven hours ahead',
        () => gateway.jwks.sign(claims, { expiresInSeconds: 39_600, withoutIssuedAt: true }),
      ],
      ['wrong issuer', () => gateway.jwks.sign(claims, { issuer: 'https://evil.example/' })],
      ['wrong audience', () => gateway.jwks.sign(claims, { audience: 'someone-else' })],
      ['unknown kid', () => gateway.jwks.sign(claims, { kid: 'rotated-away' })],
      [
        'a key not in the JWKS',
        async () => gateway.jwks.sign(claims, { key: (await generateKeyPair('RS256')).privateKey }),
      ],
      [
        'alg none',
        async () => {
          const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
          const now = Math.floor(Date.now() / 1000);
          return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({
            ...claims,
            iss: gateway.jwks.issuer,
            aud: gateway.jwks.audience,
            iat: now,
            exp: now + 600,
          })}.`;
        },
      ],
    ])('rejects a token with %s (401)', async (_case, makeToken) => {
      const response = await verify(await makeToken());
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('unauthorized');
    });

    // The default admits Auth0's ID tokens as they come (10 hours), the longest of the major providers'.
    it('accepts a token that lives exactly the 10 hours allowed, and names the lifetime when refusing', async () => {
      const tenHours = await verify(await gateway.jwks.sign(claims, { expiresInSeconds: 36_000 }));
      expect(tenHours.status).toBe(200);
      const longer = await verify(await gateway.jwks.sign(claims, { expiresInSeconds: 86_400 }));
      expect(longer.body.error).toBe('token lives 86400 s, longer than the 36000 s allowed');
    });

    it('rejects a malformed Authorization header', async () => {
      const response = await gateway.request('GET', '/api/v1/wallets', {
        headers: { authorization: 'Basic abc' },
      });
      expect(response.status).toBe(401);
    });
  });
});
