import type { GatewayConfig } from '../config/load-gateway-settings';

/**
 * Which of the provider's tokens the console sends as its Bearer token: the
 * one whose audience the gateway checks. An ID token's audience is the
 * console's client id, so it serves where AUTH_JWT_AUDIENCE is unset or is
 * that id; any other audience is an API's, which only an access token (a JWT
 * issued for that audience) carries.
 */
export type OidcBearerToken = 'id_token' | 'access_token';

/** The OpenID Connect provider the console signs in with (authorization code with PKCE). */
export interface ConsoleOidcConfig {
  issuer: string;
  client_id: string;
  scope: string;
  bearer_token: OidcBearerToken;
}

/** What the console reads first: where the API, the socket and the sign-in live. */
export interface ConsoleConfig {
  api_base: string;
  notifier_ws_url: string;
  identity_url: string | null;
  oidc: ConsoleOidcConfig | null;
  paper: boolean;
}

export function consoleConfigOf(config: GatewayConfig): ConsoleConfig {
  const settings = config.settings.console;
  return {
    api_base: '/api/v1',
    notifier_ws_url: settings.notifierWsUrl,
    identity_url: settings.identityUrl ?? null,
    oidc: oidcConfigOf(config),
    paper: settings.paper ?? Object.values(config.venues).every((venue) => venue.mode === 'paper'),
  };
}

function oidcConfigOf(config: GatewayConfig): ConsoleOidcConfig | null {
  const { oidcIssuerUrl, oidcClientId, oidcScope } = config.settings.console;
  if (!oidcIssuerUrl || !oidcClientId) {
    return null;
  }
  const audience = config.settings.auth.jwtAudience;
  return {
    issuer: oidcIssuerUrl,
    client_id: oidcClientId,
    scope: oidcScope,
    bearer_token: audience === undefined || audience === oidcClientId ? 'id_token' : 'access_token',
  };
}
