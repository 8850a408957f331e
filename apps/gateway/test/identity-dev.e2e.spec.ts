import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import WebSocket from 'ws';
import {
  loadIdentityDevSettings,
  startIdentityDev,
  type RunningIdentityDev,
  type SessionToken,
} from '@sts/app-identity-dev';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { GatewayHarness } from './gateway-harness';

const ORIGIN = 'http://127.0.0.1:3000';
const { privateKey: signingKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

/** The answer to an upgrade with these headers: the first frame, or the refusal's status and body. */
function upgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ accepted: true; frame: any } | { accepted: false; status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('message', (data) => {
      resolve({ accepted: true, frame: JSON.parse(data.toString()) });
      socket.terminate();
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ accepted: false, status: response.statusCode ?? 0, body: JSON.parse(body) }),
      );
    });
    socket.once('error', reject);
  });
}

/** A browser's way: open, send `{op: "auth", token}`; the frames until `authenticated` or the close. */
function authenticateByMessage(
  url: string,
  token: string,
): Promise<{ frames: any[]; closed?: { code: number; reason: string } }> {
  return new Promise((resolve, reject) => {
    const frames: any[] = [];
    const socket = new WebSocket(url);
    socket.once('open', () => socket.send(JSON.stringify({ op: 'auth', token })));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      frames.push(frame);
      if (frame.type === 'authenticated') {
        resolve({ frames });
        socket.terminate();
      }
    });
    socket.once('close', (code, reason) =>
      resolve({ frames, closed: { code, reason: reason.toString() } }),
    );
    socket.once('error', reject);
  });
}

describe('identity-dev tokens at the gateway and the notifier (issue 20)', () => {
  const gateway = new GatewayHarness();
  let provider: RunningIdentityDev;
  let notifier: RunningNotifier;
  const wallet = privateKeyToAccount(generatePrivateKey());
  let session: SessionToken;
  let expired: string;
  let tampered: string;

  beforeAll(async () => {
    provider = await startIdentityDev(
      loadIdentityDevSettings({
        IDENTITY_DEV_PORT: '0',
        IDENTITY_DEV_ALLOWED_ORIGINS: ORIGIN,
        IDENTITY_DEV_SIGNING_KEY_PEM: signingKey
          .export({ format: 'pem', type: 'pkcs8' })
          .toString(),
        LOG_LEVEL: 'silent',
      }),
    );
    // The gateway and the notifier trust the provider exactly as `npm start` points them at it.
    await gateway.start({ env: provider.authEnv() });
    notifier = await startNotifier({
      ...gateway.env,
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(gateway.logFile, '..', 'notifier.log'),
    });

    // A browser's sign-in: nonce, a message signed by the wallet, the token.
    const { nonce } = (await (
      await fetch(`${provider.url}/siwe/nonce`, { method: 'POST' })
    ).json()) as { nonce: string };
    const message = createSiweMessage({
      address: wallet.address,
      chainId: 1,
      domain: new URL(ORIGIN).host,
      uri: `${ORIGIN}/console/`,
      version: '1',
      nonce,
      issuedAt: new Date(),
    });
    const verified = await fetch(`${provider.url}/siwe/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature: await wallet.signMessage({ message }) }),
    });
    expect(verified.status).toBe(201);
    session = (await verified.json()) as SessionToken;

    // Signed with the provider's own key and kid, but expired a minute ago (past the 5 s tolerance).
    const claims = decodeJwt(session.token);
    const now = Math.floor(Date.now() / 1000);
    expired = await new SignJWT({ sub: claims.sub, wallet_address: claims['wallet_address'] })
      .setProtectedHeader({ alg: 'ES256', kid: decodeProtectedHeader(session.token).kid! })
      .setIssuer(claims.iss!)
      .setAudience(claims.aud!)
      .setIssuedAt(now - 1000)
      .setExpirationTime(now - 60)
      .sign(signingKey);
    // Another user's id in the payload, the original signature.
    const [head, , signature] = session.token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-5000-8000-000000000000' }),
    ).toString('base64url');
    tampered = `${head}.${forgedPayload}.${signature}`;
  });
  afterAll(async () => {
    await notifier?.close();
    await gateway.stop();
    await provider?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('bootstraps the account on /auth/verify and lists its wallet on GET /wallets', async () => {
    const verify = await gateway.request('POST', '/api/v1/auth/verify', {
      headers: bearer(session.token),
    });
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({
      user_id: session.user_id,
      wallet_address: wallet.address.toLowerCase(),
    });
    const wallets = await gateway.request('GET', '/api/v1/wallets', {
      headers: bearer(session.token),
    });
    expect(wallets.status).toBe(200);
    expect(wallets.body).toEqual([
      expect.objectContaining({ address: wallet.address.toLowerCase(), verified: true }),
    ]);
  });

  it('refuses a tampered and an expired token with 401 on both routes', async () => {
    for (const token of [tampered, expired]) {
      for (const [method, path] of [
        ['POST', '/api/v1/auth/verify'],
        ['GET', '/api/v1/wallets'],
      ]) {
        const refused = await gateway.request(method, path, { headers: bearer(token) });
        expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      }
    }
  });

  it('a refreshed token works too', async () => {
    const refreshed = await fetch(`${provider.url}/siwe/refresh`, {
      method: 'POST',
      headers: bearer(session.token),
    });
    const next = (await refreshed.json()) as SessionToken;
    const wallets = await gateway.request('GET', '/api/v1/wallets', {
      headers: bearer(next.token),
    });
    expect(wallets.status).toBe(200);
  });

  it('opens a notifier socket with the token, in the upgrade header or the first message', async () => {
    const byHeader = await upgrade(notifier.url, bearer(session.token));
    expect(byHeader).toEqual({
      accepted: true,
      frame: {
        type: 'authenticated',
        user_id: session.user_id,
        method: 'jwt',
        expires_at: session.expires_at,
      },
    });
    const byMessage = await authenticateByMessage(notifier.url, session.token);
    expect(byMessage.frames).toEqual([
      expect.objectContaining({ type: 'authenticated', user_id: session.user_id, method: 'jwt' }),
    ]);
  });

  it('refuses a notifier socket for a tampered or expired token', async () => {
    for (const token of [tampered, expired]) {
      expect(await upgrade(notifier.url, bearer(token))).toEqual({
        accepted: false,
        status: 401,
        body: { error: expect.any(String), code: 'unauthorized' },
      });
      // First-message auth: the socket is closed with 4001 unauthorized.
      const byMessage = await authenticateByMessage(notifier.url, token);
      expect(byMessage.closed).toEqual({ code: 4001, reason: 'unauthorized' });
      expect(byMessage.frames.some((frame) => frame.type === 'authenticated')).toBe(false);
    }
  });
});
