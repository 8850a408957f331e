// A real OpenID Connect provider for the console's browser spec (oidc-provider,
// ESM-only, hence this child process). One public client, the console, with
// its redirect URI and PKCE required; one test account whose tokens carry the
// wallet claim the gateway's accounts are keyed by; the package's own login
// and consent pages, which the spec fills in the browser. Prints `ready` once
// it listens. Settings from the environment (see oidc-fleet.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';

// When each phase begins, on stderr (the run's log): a slow start says where it stood.
const startedAt = performance.now();
const phase = (name) =>
  process.stderr.write(
    `oidc-provider ${process.pid}: ${name} at ${Math.round(performance.now() - startedAt)} ms\n`,
  );
phase('loading oidc-provider');
const { default: Provider } = await import('oidc-provider');

const env = (name) => {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
};

const port = Number(env('OIDC_TEST_PORT'));
const issuer = `http://127.0.0.1:${port}`;
const clientId = env('OIDC_TEST_CLIENT_ID');
const accountId = env('OIDC_TEST_ACCOUNT');
const wallet = env('OIDC_TEST_WALLET');
const tokenTtlS = Number(env('OIDC_TEST_TOKEN_TTL_S'));

phase('generating the signing key');
// A signing key of this run: the gateway reads it from jwks_uri, as from any provider.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: 'test-run',
  alg: 'RS256',
  use: 'sig',
};

const account = {
  accountId,
  claims: async () => ({ sub: accountId, wallet_address: wallet }),
};

phase('setting up the provider');
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      redirect_uris: [env('OIDC_TEST_REDIRECT_URI')],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      // A browser app keeps no secret: PKCE stands in for it (oidc-provider requires it here).
      token_endpoint_auth_method: 'none',
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  // The wallet claim rides in the ID token itself, which the console sends as its Bearer token.
  claims: { openid: ['sub', 'wallet_address'] },
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) => (id === accountId ? account : undefined),
  // A refresh token for the console without offline_access (which needs prompt=consent).
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  ttl: {
    AccessToken: tokenTtlS,
    AuthorizationCode: 60,
    Grant: 3600,
    IdToken: tokenTtlS,
    Interaction: 600,
    RefreshToken: 3600,
    Session: 3600,
  },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
});

phase('listening');
provider.listen(port, '127.0.0.1', () => {
  phase('ready');
  process.stdout.write('ready\n');
});
