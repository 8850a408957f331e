import * as oauth from 'oauth4webapi';
import type { ConsoleOidcConfig } from '../config';
import { endSessionUrl, scopeToAsk } from './oidc-discovery';

/** What a sign-in or a renewal through the provider gives the session. */
export interface OidcTokens {
  /** The Bearer token the gateway accepts (`bearer_token` of config.json: the ID or the access token). */
  token: string;
  expiresAt: string;
  /** Present when the provider issues one: the console renews with it, else signs in again. */
  refreshToken?: string;
  /** The ID token, kept for signing out at the provider (`id_token_hint`). */
  idToken?: string;
}

/** What the browser keeps between leaving for the provider and coming back to the callback. */
interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const PENDING = 'sts-console.oidc.pending';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The console's callback page, registered at the provider as the client's redirect URI. */
export const oidcRedirectUri = (): string =>
  `${window.location.origin}${import.meta.env.BASE_URL}callback`;

/** Where the provider sends the browser after signing out: registered as a post-logout redirect URI. */
export const oidcPostLogoutRedirectUri = (): string =>
  `${window.location.origin}${import.meta.env.BASE_URL}sign-in`;

/**
 * oauth4webapi refuses plain http; a provider on this machine (a test's, a
 * developer's) is allowed it, any other must be https.
 */
function requestOptions(issuer: URL): { [oauth.allowInsecureRequests]?: boolean } {
  return issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname)
    ? { [oauth.allowInsecureRequests]: true }
    : {};
}

interface Provider {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  options: { [oauth.allowInsecureRequests]?: boolean };
}

let discovered: { issuer: string; provider: Promise<Provider> } | undefined;

/** The provider's metadata (OpenID Connect Discovery), read once per page. */
function provider(config: ConsoleOidcConfig): Promise<Provider> {
  if (discovered?.issuer !== config.issuer) {
    const issuer = new URL(config.issuer);
    const options = requestOptions(issuer);
    const pending = oauth
      .discoveryRequest(issuer, { algorithm: 'oidc', ...options })
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
      .then((as) => ({ as, client: { client_id: config.client_id }, options }));
    // A failed discovery is tried again on the next sign-in.
    pending.catch(() => (discovered = undefined));
    discovered = { issuer: config.issuer, provider: pending };
  }
  return discovered.provider;
}

/** Leaves for the provider's sign-in: authorization code with PKCE (S256), state and nonce. */
export async function beginOidcSignIn(config: ConsoleOidcConfig): Promise<void> {
  const { as } = await provider(config);
  if (!as.authorization_endpoint) {
    throw new Error('the identity provider names no authorization endpoint');
  }
  const pending: PendingSignIn = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
  };
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: config.client_id,
    redirect_uri: oidcRedirectUri(),
    response_type: 'code',
    scope: scopeToAsk(config.scope, as),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  window.location.assign(url.href);
}

/**
 * Back from the provider: checks the answer against the state kept, trades
 * the code (with the PKCE verifier) for tokens and checks the ID token's
 * issuer, audience, expiry and nonce. The pending sign-in is used once.
 */
export async function completeOidcSignIn(
  config: ConsoleOidcConfig,
  callbackUrl: URL,
): Promise<OidcTokens> {
  const saved = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (!saved) {
    throw new Error('no sign-in was started in this tab: start it again');
  }
  const pending = JSON.parse(saved) as PendingSignIn;
  const { as, client, options } = await provider(config);
  const parameters = oauth.validateAuthResponse(as, client, callbackUrl, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    oidcRedirectUri(),
    pending.codeVerifier,
    options,
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  return tokensOf(config, result);
}

/** New tokens for a refresh token (the provider may rotate it: the new one replaces it). */
export async function refreshOidcTokens(
  config: ConsoleOidcConfig,
  refreshToken: string,
): Promise<OidcTokens> {
  const { as, client, options } = await provider(config);
  const response = await oauth.refreshTokenGrantRequest(
    as,
    client,
    oauth.None(),
    refreshToken,
    options,
  );
  const result = await oauth.processRefreshTokenResponse(as, client, response);
  const tokens = tokensOf(config, result);
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

/**
 * Signs out at the provider: its refresh token revoked where the provider
 * offers a `revocation_endpoint` (RFC 7009), then the URL of its
 * `end_session_endpoint` to send the browser to (null where it has none:
 * only the console's session ends). A revocation that fails does not keep
 * the user signed in: the provider's sign-out still runs, and ends the
 * refresh token with the session where the provider ties them.
 */
export async function endOidcSession(
  config: ConsoleOidcConfig,
  tokens: { refreshToken?: string; idToken?: string },
): Promise<string | null> {
  const { as, client, options } = await provider(config);
  if (tokens.refreshToken && as.revocation_endpoint) {
    await oauth
      .revocationRequest(as, client, oauth.None(), tokens.refreshToken, {
        ...options,
        additionalParameters: { token_type_hint: 'refresh_token' },
      })
      .then((response) => oauth.processRevocationResponse(response))
      .catch(() => undefined);
  }
  return endSessionUrl(as, {
    clientId: config.client_id,
    idToken: tokens.idToken,
    postLogoutRedirectUri: oidcPostLogoutRedirectUri(),
  });
}

/** The provider refused the refresh token (expired, revoked, reused): only a new sign-in helps. */
export const isRefusedByProvider = (error: unknown): boolean =>
  error instanceof oauth.ResponseBodyError && error.status >= 400 && error.status < 500;

function tokensOf(config: ConsoleOidcConfig, result: oauth.TokenEndpointResponse): OidcTokens {
  const token = config.bearer_token === 'id_token' ? result.id_token : result.access_token;
  if (!token) {
    throw new Error(`the identity provider issued no ${config.bearer_token}`);
  }
  return {
    token,
    expiresAt: new Date(expiryOf(token, result)).toISOString(),
    refreshToken: result.refresh_token,
    idToken: result.id_token,
  };
}

/**
 * When the Bearer token expires: its `exp` (read, not verified: the gateway
 * verifies it), else `expires_in` for an access token that is no JWT.
 */
function expiryOf(token: string, result: oauth.TokenEndpointResponse): number {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const { exp } = JSON.parse(atob(payload)) as { exp?: unknown };
    if (typeof exp === 'number') {
      return exp * 1000;
    }
  } catch {
    // not a JWT: fall through to expires_in
  }
  return Date.now() + (result.expires_in ?? 300) * 1000;
}
