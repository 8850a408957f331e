import { IdentityError } from '../api/api-error';
import type { ConsoleConfig } from '../config';
import { isRefusedByProvider, refreshOidcTokens } from './oidc';
import { refreshToken } from './siwe';

/** The part of a session a renewal replaces. */
export interface Renewed {
  token: string;
  expiresAt: string;
  oidc?: OidcSession;
}

/** What a session signed in at an OpenID Connect provider keeps of it: to renew, and to sign out there. */
export interface OidcSession {
  refreshToken?: string;
  idToken?: string;
}

/**
 * How this session's token is renewed: at the development provider with the
 * token itself (`/siwe/refresh`), at an OpenID Connect provider with its
 * refresh token; null where there is nothing to renew with (a provider that
 * issued no refresh token): the session then ends with its token.
 */
export function renewalOf(
  config: ConsoleConfig,
  session: { token: string; oidc?: OidcSession },
): (() => Promise<Renewed>) | null {
  if (session.oidc) {
    const { oidc } = config;
    const refresh = session.oidc.refreshToken;
    if (!oidc || !refresh) {
      return null;
    }
    const idToken = session.oidc.idToken;
    return async () => {
      const tokens = await refreshOidcTokens(oidc, refresh);
      return {
        token: tokens.token,
        expiresAt: tokens.expiresAt,
        // A refresh may bring no new ID token: the one kept still names the session to end.
        oidc: { refreshToken: tokens.refreshToken, idToken: tokens.idToken ?? idToken },
      };
    };
  }
  const identityUrl = config.identity_url;
  if (!identityUrl) {
    return null;
  }
  return async () => {
    const issued = await refreshToken(identityUrl, session.token);
    return { token: issued.token, expiresAt: issued.expires_at };
  };
}

/** The provider said no (as opposed to being unreachable): retrying will not help. */
export const isRefusedRenewal = (error: unknown): boolean =>
  (error instanceof IdentityError && error.status === 401) || isRefusedByProvider(error);
