// A real OpenID Connect provider for the console's browser specs (oidc-provider,
// ESM-only, hence this child process). One public client, the console, with
// its redirect URI, post-logout redirect URI and PKCE required; one test
// account; the package's own login, consent and logout pages, which the specs
// fill in the browser; token revocation and RP-initiated logout offered, as
// Auth0, Keycloak and (logout) Entra ID offer them. Two profiles
// (OIDC_TEST_PROFILE):
// - `wallet-claim`: tokens carry the wallet claim, and a refresh token is
//   issued without offline_access (a provider set up for this service);
// - `as-public-providers`: as Google, Entra ID, Auth0 and Keycloak come: no
//   wallet claim, a refresh token only for `offline_access`, and ID tokens of
//   OIDC_TEST_TOKEN_TTL_S (Auth0's 10 hours).
// Prints `ready` once it listens. Settings from the environment (see oidc-fleet.ts).
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
const profile = env('OIDC_TEST_PROFILE');
if (profile !== 'wallet-claim' && profile !== 'as-public-providers') {
  throw new Error(`unknown OIDC_TEST_PROFILE ${profile}`);
}
const asPublicProviders = profile === 'as-public-providers';
const wallet = asPublicProviders ? undefined : env('OIDC_TEST_WALLET');
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
  claims: async () => (wallet ? { sub: accountId, wallet_address: wallet } : { sub: accountId }),
};

/** What differs between the profiles (the header says which is which). */
const profileSettings = asPublicProviders
  ? {
      // oidc-provider's defaults: the ID token names the subject, and a refresh token is
      // issued only for offline_access.
      claims: { openid: ['sub'] },
    }
  : {
      // The wallet claim rides in the ID token itself, which the console sends as its Bearer token.
      claims: { openid: ['sub', 'wallet_address'] },
      // A refresh token for the console without offline_access.
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    };

phase('setting up the provider');
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      redirect_uris: [env('OIDC_TEST_REDIRECT_URI')],
      post_logout_redirect_uris: [env('OIDC_TEST_POST_LOGOUT_REDIRECT_URI')],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      // A browser app keeps no secret: PKCE stands in for it (oidc-provider requires it here).
      token_endpoint_auth_method: 'none',
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  ...profileSettings,
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) => (id === accountId ? account : undefined),
  ttl: {
    AccessToken: tokenTtlS,
    AuthorizationCode: 60,
    Grant: 3600,
    IdToken: tokenTtlS,
    Interaction: 600,
    RefreshToken: 3600,
    Session: Math.max(3600, tokenTtlS),
  },
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: true },
    revocation: { enabled: true },
    rpInitiatedLogout: { enabled: true },
  },
});

if (asPublicProviders) {
  // oidc-provider keeps OpenID Connect Core 11 to the letter and drops offline_access from a
  // request without prompt=consent; Auth0, Entra ID and Keycloak grant it without, and the
  // console does not send prompt=consent (it would force their consent screen on every
  // sign-in). Such a request is given prompt=consent here: the consent page shows, and the
  // refresh token is issued as those providers issue it.
  provider.use(async (ctx, next) => {
    const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope.split(' ') : [];
    if (ctx.path === '/auth' && scope.includes('offline_access') && !ctx.query.prompt) {
      ctx.query = { ...ctx.query, prompt: 'consent' };
    }
    await next();
  });
}

phase('listening');
provider.listen(port, '127.0.0.1', () => {
  phase('ready');
  process.stdout.write('ready\n');
});
