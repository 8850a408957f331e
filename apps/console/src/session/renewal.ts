import { IdentityError } from '../api/api-error';
import type { ConsoleConfig } from '../config';
import { isRefusedByProvider, refreshOidcTokens } from './oidc';
import { refreshToken } from './siwe';

/** The part of a session a renewal replaces. */
export interface Renewed {
  token: string;
  expiresAt: string;
  oidc?: { refreshToken?: string };
}

/**
 * How this session's token is renewed: at the development provider with the
 * token itself (`/siwe/refresh`), at an OpenID Connect provider with its
 * refresh token; null where there is nothing to renew with (a provider that
 * issued no refresh token): the session then ends with its token.
 */
export function renewalOf(
  config: ConsoleConfig,
  session: { token: string; oidc?: { refreshToken?: string } },
): (() => Promise<Renewed>) | null {
  if (session.oidc) {
    const { oidc } = config;
    const refresh = session.oidc.refreshToken;
    if (!oidc || !refresh) {
      return null;
    }
    return async () => {
      const tokens = await refreshOidcTokens(oidc, refresh);
      return {
        token: tokens.token,
        expiresAt: tokens.expiresAt,
        oidc: { refreshToken: tokens.refreshToken },
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
