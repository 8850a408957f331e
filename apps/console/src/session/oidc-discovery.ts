/**
 * What the console makes of the provider's discovery document beyond the
 * code flow itself: the scope it asks for, and where signing out goes. Pure,
 * so the rules are tested without a browser (`oidc-discovery.spec.ts`).
 */

/** The parts of the discovery document (OpenID Connect Discovery 1.0) read here. */
export interface DiscoveredProvider {
  scopes_supported?: readonly string[];
  end_session_endpoint?: string;
  revocation_endpoint?: string;
}

/**
 * The configured scope (`OIDC_SCOPE`), with `offline_access` added where the
 * provider lists it in `scopes_supported`: Auth0, Entra ID and Keycloak issue
 * a refresh token only for it, and without one the session would end with its
 * first token. A provider that does not list it (Google) is not asked for it.
 */
export function scopeToAsk(configured: string, provider: DiscoveredProvider): string {
  const scopes = configured.split(/\s+/).filter((scope) => scope.length > 0);
  if (provider.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) {
    scopes.push('offline_access');
  }
  return scopes.join(' ');
}

export interface EndSession {
  clientId: string;
  /** The ID token of the session, expired or not: the provider knows whose session to end. */
  idToken?: string;
  /** Where the provider sends the browser back: the console's sign-in page, registered at the provider. */
  postLogoutRedirectUri: string;
}

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): the
 * provider's `end_session_endpoint` with `id_token_hint`,
 * `post_logout_redirect_uri` and `client_id` (which some providers need to
 * check the redirect when the hint is absent or expired); null where the
 * provider names no such endpoint (Google): only the console's session ends.
 */
export function endSessionUrl(provider: DiscoveredProvider, request: EndSession): string | null {
  if (!provider.end_session_endpoint) {
    return null;
  }
  const url = new URL(provider.end_session_endpoint);
  if (request.idToken) {
    url.searchParams.set('id_token_hint', request.idToken);
  }
  url.searchParams.set('post_logout_redirect_uri', request.postLogoutRedirectUri);
  url.searchParams.set('client_id', request.clientId);
  return url.href;
}
