import { generateKeyPairSync } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { AuthSettings, JwtAuthenticator } from '@sts/auth';
import { loadConfig } from '@sts/platform';
import { startIdentityDev, type RunningIdentityDev } from '../src/bootstrap';
import { loadIdentityDevSettings } from '../src/config/identity-dev.settings';

const ORIGIN = 'http://127.0.0.1:3000';

/** A P-256 key the spec holds too, so it can sign tokens the provider would have signed. */
const { privateKey: signingKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const signingKeyPem = signingKey.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('identity-dev: Sign-In with Ethereum to a session JWT', () => {
  let provider: RunningIdentityDev;
  const wallet = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    provider = await startIdentityDev(
      loadIdentityDevSettings({
        IDENTITY_DEV_PORT: '0',
        IDENTITY_DEV_ALLOWED_ORIGINS: `${ORIGIN},http://localhost:3000`,
        IDENTITY_DEV_SIGNING_KEY_PEM: signingKeyPem,
        LOG_LEVEL: 'silent',
      }),
    );
  });
  afterAll(() => provider.close());

  const post = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${provider.url}${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as any,
      headers: response.headers,
    };
  };
  const nonce = async (): Promise<string> => (await post('/siwe/nonce')).body.nonce;
  const siwe =
    (account: PrivateKeyAccount, fields: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
    async (nonceValue?: string) =>
      createSiweMessage({
        address: account.address,
        chainId: 1,
        domain: '127.0.0.1:3000',
        uri: `${ORIGIN}/console/`,
        version: '1',
        nonce: nonceValue ?? (await nonce()),
        issuedAt: new Date(),
        statement: 'Sign in to the spread-trading console',
        ...fields,
      });
  const signIn = async (message: string, signer: PrivateKeyAccount = wallet) =>
    post('/siwe/verify', { message, signature: await signer.signMessage({ message }) });

  it('hands out single-use alphanumeric nonces', async () => {
    const first = await post('/siwe/nonce');
    expect(first.status).toBe(201);
    expect(first.body.nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(await nonce()).not.toBe(first.body.nonce);
  });

  it('turns a signed message into an ES256 JWT the gateway’s authenticator accepts', async () => {
    const message = await siwe(wallet)();
    const answer = await signIn(message);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      token: expect.any(String),
      expires_at: expect.any(String),
      user_id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      wallet_address: wallet.address.toLowerCase(),
    });
    const header = decodeProtectedHeader(answer.body.token);
    const jwks = (await (await fetch(provider.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(header).toMatchObject({ alg: 'ES256', kid: jwks.keys[0].kid });
    const { payload } = await jwtVerify(
      answer.body.token,
      createRemoteJWKSet(new URL(provider.jwksUrl)),
      {
        issuer: provider.authEnv()['AUTH_JWT_ISSUER'],
        audience: provider.authEnv()['AUTH_JWT_AUDIENCE'],
      },
    );
    expect(payload).toMatchObject({
      sub: answer.body.user_id,
      wallet_address: answer.body.wallet_address,
    });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(new Date(answer.body.expires_at).getTime()).toBe(payload.exp! * 1000);

    // What the gateway and the notifier run on every request, with the settings `npm start` gives them.
    const principal = await new JwtAuthenticator(
      loadConfig(AuthSettings, provider.authEnv()),
    ).authenticate(answer.body.token);
    expect(principal).toMatchObject({
      userId: answer.body.user_id,
      walletAddress: answer.body.wallet_address,
    });

    // The same wallet is the same user at its next sign-in.
    const again = await signIn(await siwe(wallet)());
    expect(again.body.user_id).toBe(answer.body.user_id);
  });

  it('refuses a signature by another key', async () => {
    const answer = await signIn(await siwe(wallet)(), privateKeyToAccount(generatePrivateKey()));
    expect(answer).toMatchObject({
      status: 401,
      body: { error: expect.any(String), code: 'invalid_signature' },
    });
    const garbage = await post('/siwe/verify', {
      message: await siwe(wallet)(),
      signature: '0x1234',
    });
    expect(garbage).toMatchObject({ status: 401, body: { code: 'invalid_signature' } });
  });

  it('refuses a nonce used before, one it never issued, and one a failed attempt spent', async () => {
    const message = await siwe(wallet)();
    expect((await signIn(message)).status).toBe(201);
    expect(await signIn(message)).toMatchObject({ status: 401, body: { code: 'nonce_invalid' } });
    const invented = await siwe(wallet)('abcdefghijklmnop1234');
    expect(await signIn(invented)).toMatchObject({ status: 401, body: { code: 'nonce_invalid' } });
    const spent = await siwe(wallet)();
    expect((await signIn(spent, privateKeyToAccount(generatePrivateKey()))).status).toBe(401);
    expect(await signIn(spent)).toMatchObject({ status: 401, body: { code: 'nonce_invalid' } });
  });

  it('refuses a message for another domain, or a uri off the allowed origin', async () => {
    const evil = await siwe(wallet, { domain: 'evil.example', uri: 'https://evil.example/' })();
    expect(await signIn(evil)).toMatchObject({ status: 401, body: { code: 'domain_mismatch' } });
    const offOrigin = await siwe(wallet, { uri: 'https://evil.example/console/' })();
    expect(await signIn(offOrigin)).toMatchObject({
      status: 401,
      body: { code: 'domain_mismatch' },
    });
    const otherPort = await siwe(wallet, {
      domain: '127.0.0.1:3999',
      uri: 'http://127.0.0.1:3999/',
    })();
    expect(await signIn(otherPort)).toMatchObject({
      status: 401,
      body: { code: 'domain_mismatch' },
    });
    // The second allowed origin signs in.
    const localhost = await siwe(wallet, {
      domain: 'localhost:3000',
      uri: 'http://localhost:3000/console/',
    })();
    expect((await signIn(localhost)).status).toBe(201);
  });

  it('refuses an expired message and one not valid yet', async () => {
    const expired = await siwe(wallet, { expirationTime: new Date(Date.now() - 1000) })();
    expect(await signIn(expired)).toMatchObject({ status: 401, body: { code: 'message_expired' } });
    const early = await siwe(wallet, { notBefore: new Date(Date.now() + 60_000) })();
    expect(await signIn(early)).toMatchObject({ status: 401, body: { code: 'message_expired' } });
    const current = await siwe(wallet, { expirationTime: new Date(Date.now() + 60_000) })();
    expect((await signIn(current)).status).toBe(201);
  });

  it('refuses bodies that are not a SIWE sign-in with 400 invalid_request', async () => {
    for (const body of [
      { message: 'hello', signature: '0x00' },
      { message: 1, signature: '0x00' },
      { message: 'm', signature: '0x00', extra: true },
      '{not json',
      [],
    ]) {
      expect(await post('/siwe/verify', body)).toMatchObject({
        status: 400,
        body: { error: expect.any(String), code: 'invalid_request' },
      });
    }
    expect((await post('/siwe/verify', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  describe('refresh', () => {
    it('gives a valid token a new one for the same user', async () => {
      const session = (await signIn(await siwe(wallet)())).body;
      const refreshed = await post('/siwe/refresh', undefined, {
        authorization: `Bearer ${session.token}`,
      });
      expect(refreshed.status).toBe(201);
      expect(refreshed.body).toMatchObject({
        user_id: session.user_id,
        wallet_address: session.wallet_address,
      });
      expect(refreshed.body.token).not.toBe(session.token);
      expect(decodeJwt(refreshed.body.token).jti).not.toBe(decodeJwt(session.token).jti);
    });

    it('refuses an expired, a tampered, a foreign or a missing token with 401', async () => {
      const session = (await signIn(await siwe(wallet)())).body;
      const claims = decodeJwt(session.token);
      const kid = decodeProtectedHeader(session.token).kid!;
      const now = Math.floor(Date.now() / 1000);
      // Signed with the provider's own key, an hour old, expired a minute ago.
      const expired = await new SignJWT({
        sub: claims.sub,
        wallet_address: claims['wallet_address'],
      })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(claims.iss!)
        .setAudience(claims.aud!)
        .setIssuedAt(now - 3600)
        .setExpirationTime(now - 60)
        .sign(signingKey);
      const [head, payload, signature] = session.token.split('.');
      const otherWallet = Buffer.from(
        JSON.stringify({ ...claims, wallet_address: '0x000000000000000000000000000000000000dead' }),
      ).toString('base64url');
      const tampered = `${head}.${otherWallet}.${signature}`;
      const { privateKey: foreignKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const foreign = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid })
        .sign(foreignKey);
      for (const header of [
        `Bearer ${expired}`,
        `Bearer ${tampered}`,
        `Bearer ${foreign}`,
        `Bearer ${head}.${payload}.`,
        'Basic abc',
      ]) {
        expect(await post('/siwe/refresh', undefined, { authorization: header })).toMatchObject({
          status: 401,
          body: { error: expect.any(String), code: 'unauthorized' },
        });
      }
      expect(await post('/siwe/refresh')).toMatchObject({
        status: 401,
        body: { code: 'unauthorized' },
      });
    });
  });

  it('answers CORS for the allowed origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${provider.url}/siwe/verify`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight(ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('content-type');
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const nonceAnswer = await post('/siwe/nonce', undefined, { origin: ORIGIN });
    expect(nonceAnswer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('answers unknown routes 404 and wrong methods 405 in the same error shape', async () => {
    expect(await post('/nope')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const wrong = await fetch(`${provider.url}/siwe/verify`);
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});
