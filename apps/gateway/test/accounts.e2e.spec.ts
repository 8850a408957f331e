import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { GatewayHarness } from './gateway-harness';

describe('account endpoints', () => {
  const gateway = new GatewayHarness();
  const secret = `SECRET-${randomBytes(16).toString('hex')}`;

  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  /** A browser user: a JWT for a fresh identity whose primary wallet is a real key pair. */
  async function browserUser() {
    const account = privateKeyToAccount(generatePrivateKey());
    const userId = `idp|${randomBytes(6).toString('hex')}`;
    const token = await gateway.jwks.sign({ sub: userId, wallet_address: account.address });
    const headers = { authorization: `Bearer ${token}` };
    const verified = await gateway.request('POST', '/api/v1/auth/verify', { headers });
    expect(verified.status).toBe(200);
    return { userId, account, headers, wallet: account.address.toLowerCase() };
  }

  async function linkWallet(user: Awaited<ReturnType<typeof browserUser>>) {
    const extra = privateKeyToAccount(generatePrivateKey());
    const challenge = await gateway.request('POST', '/api/v1/wallets/link/challenge', {
      headers: user.headers,
      body: { address: extra.address },
    });
    expect(challenge.status).toBe(201);
    const signature = await extra.signMessage({ message: challenge.body.message });
    return { extra, challenge: challenge.body, signature };
  }

  it('creates the account and primary wallet on first verify', async () => {
    const user = await browserUser();
    const wallets = await gateway.request('GET', '/api/v1/wallets', { headers: user.headers });
    expect(wallets.body).toEqual([
      { address: user.wallet, linked_at: expect.any(String), verified: true },
    ]);
    expect(new Date(wallets.body[0].linked_at).toISOString()).toBe(wallets.body[0].linked_at);
  });

  it('links a wallet that signed the challenge, once', async () => {
    const user = await browserUser();
    const { extra, challenge, signature } = await linkWallet(user);
    const linked = await gateway.request('POST', '/api/v1/wallets/link', {
      headers: user.headers,
      body: { address: extra.address, nonce: challenge.nonce, signature },
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toEqual({
      address: extra.address.toLowerCase(),
      linked_at: expect.any(String),
      verified: true,
    });

    const replay = await gateway.request('POST', '/api/v1/wallets/link', {
      headers: user.headers,
      body: { address: extra.address, nonce: challenge.nonce, signature },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('nonce_expired');

    const wallets = await gateway.request('GET', '/api/v1/wallets', { headers: user.headers });
    expect(wallets.body.map((wallet: { address: string }) => wallet.address).sort()).toEqual(
      [user.wallet, extra.address.toLowerCase()].sort(),
    );
  });

  it('refuses a signature from another key and changes nothing', async () => {
    const user = await browserUser();
    const { extra, challenge } = await linkWallet(user);
    const impostor = privateKeyToAccount(generatePrivateKey());
    const response = await gateway.request('POST', '/api/v1/wallets/link', {
      headers: user.headers,
      body: {
        address: extra.address,
        nonce: challenge.nonce,
        signature: await impostor.signMessage({ message: challenge.message }),
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_signature');
    const wallets = await gateway.request('GET', '/api/v1/wallets', { headers: user.headers });
    expect(wallets.body).toHaveLength(1);
  });

  it('rejects malformed bodies and unknown fields with 400 invalid_request', async () => {
    const user = await browserUser();
    for (const body of [{ address: 'nope' }, { address: user.account.address, admin: true }, {}]) {
      const response = await gateway.request('POST', '/api/v1/wallets/link/challenge', {
        headers: user.headers,
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_request');
    }
  });

  it('never unlinks the primary wallet; unlinks another', async () => {
    const user = await browserUser();
    const primary = await gateway.request('DELETE', `/api/v1/wallets/${user.wallet}`, {
      headers: user.headers,
    });
    expect(primary.status).toBe(409);
    expect(primary.body.code).toBe('wallet_is_primary');

    const { extra, challenge, signature } = await linkWallet(user);
    await gateway.request('POST', '/api/v1/wallets/link', {
      headers: user.headers,
      body: { address: extra.address, nonce: challenge.nonce, signature },
    });
    const unlinked = await gateway.request('DELETE', `/api/v1/wallets/${extra.address}`, {
      headers: user.headers,
    });
    expect(unlinked.status).toBe(200);
    const wallets = await gateway.request('GET', '/api/v1/wallets', { headers: user.headers });
    expect(wallets.body).toHaveLength(1);
  });

  it('stores venue credentials sealed, returns metadata only, and never leaks the secret', async () => {
    const user = await browserUser();
    const added = await gateway.request('POST', '/api/v1/credentials/hyperliquid', {
      headers: user.headers,
      body: { wallet_addr: user.wallet, api_key: 'PUBLICKEY-abcd1234', api_secret: secret },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      exchange: 'hyperliquid',
      wallet_addr: user.wallet,
      key_preview: '…1234',
      permissions: 'trade',
      added_at: expect.any(String),
      last_used: null,
      status: 'active',
    });
    const listed = await gateway.request('GET', '/api/v1/credentials', { headers: user.headers });
    expect(listed.body).toEqual([added.body]);

    // Not in any response, not in any column of any table, not in any log line.
    expect(JSON.stringify([added.body, listed.body])).not.toContain(secret);
    const dump = await gateway.query<{ row: string }>(
      `SELECT string_agg(t::text, '\n') AS row FROM (
         SELECT to_jsonb(c)::text AS t FROM exchange_credentials c
         UNION ALL SELECT to_jsonb(a)::text FROM operator_audit_log a
         UNION ALL SELECT encode(sealed_secret, 'escape') FROM exchange_credentials) x`,
    );
    expect(dump[0].row).toContain('hyperliquid');
    expect(dump[0].row).not.toContain(secret);
    expect(gateway.logs()).toContain('/api/v1/credentials/hyperliquid');
    expect(gateway.logs()).not.toContain(secret);
  });

  it('refuses credentials for a wallet the caller does not own, and unknown exchanges', async () => {
    const alice = await browserUser();
    const bob = await browserUser();
    const foreign = await gateway.request('POST', '/api/v1/credentials/paradex', {
      headers: alice.headers,
      body: { wallet_addr: bob.wallet, api_key: 'PUBLICKEY-0000', api_secret: secret },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('wallet_not_found');
    const unknown = await gateway.request('POST', '/api/v1/credentials/binance', {
      headers: alice.headers,
      body: { wallet_addr: alice.wallet, api_key: 'PUBLICKEY-0000', api_secret: secret },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_exchange');
    expect(
      (await gateway.request('GET', '/api/v1/credentials', { headers: bob.headers })).body,
    ).toEqual([]);
  });

  it('removes a credential, and 404s one that is not there or belongs to someone else', async () => {
    const alice = await browserUser();
    const bob = await browserUser();
    await gateway.request('POST', '/api/v1/credentials/lighter', {
      headers: alice.headers,
      body: { wallet_addr: alice.wallet, api_key: 'PUBLICKEY-9999', api_secret: secret },
    });
    const byBob = await gateway.request('DELETE', `/api/v1/credentials/lighter/${alice.wallet}`, {
      headers: bob.headers,
    });
    expect(byBob.status).toBe(404);
    const byAlice = await gateway.request('DELETE', `/api/v1/credentials/lighter/${alice.wallet}`, {
      headers: alice.headers,
    });
    expect(byAlice.status).toBe(200);
    expect(
      (await gateway.request('GET', '/api/v1/credentials', { headers: alice.headers })).body,
    ).toEqual([]);
  });

  it('user A never sees user B wallets or credentials, by API key or by session', async () => {
    const alice = await gateway.userWithKey('account:read');
    const bob = await gateway.userWithKey('account:read');
    await gateway.ops(
      'credentials',
      'add',
      '--user',
      bob.userId,
      '--exchange',
      'aster',
      '--wallet',
      bob.wallet,
      '--api-key',
      'BOBKEY-5678',
      '--api-secret',
      secret,
    );
    const aliceWallets = await gateway.request('GET', '/api/v1/wallets', {
      headers: { 'x-api-key': alice.apiKey },
    });
    expect(aliceWallets.body.map((wallet: { address: string }) => wallet.address)).toEqual([
      alice.wallet,
    ]);
    const aliceCredentials = await gateway.request('GET', '/api/v1/credentials', {
      headers: { 'x-api-key': alice.apiKey },
    });
    expect(aliceCredentials.body).toEqual([]);
    const bobCredentials = await gateway.request('GET', '/api/v1/credentials', {
      headers: { 'x-api-key': bob.apiKey },
    });
    expect(bobCredentials.body).toEqual([
      expect.objectContaining({ exchange: 'aster', key_preview: '…5678' }),
    ]);
  });

  /**
   * Issue 59: an OpenID Connect provider as it comes (Google, Entra, Auth0,
   * Keycloak) names the user and no wallet. The account is made on the first
   * verify without one, and the first wallet linked through the challenge
   * becomes its primary.
   */
  it('makes an account from a token without a wallet claim; its first linked wallet is primary', async () => {
    const userId = `oidc|${randomBytes(6).toString('hex')}`;
    const headers = { authorization: `Bearer ${await gateway.jwks.sign({ sub: userId })}` };
    const verify = () => gateway.request('POST', '/api/v1/auth/verify', { headers });
    const first = await verify();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ user_id: userId, wallet_address: null, new_account: true });
    expect((await gateway.request('GET', '/api/v1/wallets', { headers })).body).toEqual([]);

    const user = {
      userId,
      headers,
      account: privateKeyToAccount(generatePrivateKey()),
      wallet: '',
    };
    const linkOne = async () => {
      const { extra, challenge, signature } = await linkWallet(user);
      const linked = await gateway.request('POST', '/api/v1/wallets/link', {
        headers,
        body: { address: extra.address, nonce: challenge.nonce, signature },
      });
      expect(linked.status).toBe(201);
      return extra.address.toLowerCase();
    };
    const primary = await linkOne();
    const second = await linkOne();
    const again = await verify();
    expect(again.body).toMatchObject({ wallet_address: primary, new_account: false });
    const unlinkPrimary = await gateway.request('DELETE', `/api/v1/wallets/${primary}`, {
      headers,
    });
    expect(unlinkPrimary.body.code).toBe('wallet_is_primary');
    const unlinkSecond = await gateway.request('DELETE', `/api/v1/wallets/${second}`, { headers });
    expect(unlinkSecond.status).toBe(200);
    const rows = await gateway.query<{ primary_wallet: string }>(
      'SELECT primary_wallet FROM users WHERE id = $1',
      [userId],
    );
    expect(rows).toEqual([{ primary_wallet: primary }]);
  });

  it('gives a wallet-less account the wallet of a later token that claims one, as primary', async () => {
    const userId = `oidc|${randomBytes(6).toString('hex')}`;
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const verify = async (claims: Record<string, string>) =>
      gateway.request('POST', '/api/v1/auth/verify', {
        headers: { authorization: `Bearer ${await gateway.jwks.sign({ sub: userId, ...claims })}` },
      });
    expect((await verify({})).body.wallet_address).toBeNull();
    const claimed = await verify({ wallet_address: wallet });
    expect(claimed.status).toBe(200);
    expect(claimed.body.wallet_address).toBe(wallet.toLowerCase());
  });
});
