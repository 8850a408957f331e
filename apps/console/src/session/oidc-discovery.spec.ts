import { endSessionUrl, scopeToAsk } from './oidc-discovery';

describe("the provider's discovery document", () => {
  it('asks offline_access where the provider lists it, once', () => {
    const listed = { scopes_supported: ['openid', 'profile', 'offline_access'] };
    expect(scopeToAsk('openid', listed)).toBe('openid offline_access');
    expect(scopeToAsk(' openid  profile ', listed)).toBe('openid profile offline_access');
    expect(scopeToAsk('openid offline_access', listed)).toBe('openid offline_access');
  });

  it('asks no offline_access where the provider does not list it, or lists no scopes', () => {
    // Google's document lists openid, email and profile.
    expect(scopeToAsk('openid email', { scopes_supported: ['openid', 'email', 'profile'] })).toBe(
      'openid email',
    );
    expect(scopeToAsk('openid', {})).toBe('openid');
  });

  it("signs out at the provider's end_session_endpoint with the ID token and the way back", () => {
    const url = endSessionUrl(
      { end_session_endpoint: 'https://id.example.com/oidc/logout?tenant=t1' },
      {
        clientId: 'console',
        idToken: 'header.payload.signature',
        postLogoutRedirectUri: 'https://trade.example.com/console/sign-in',
      },
    );
    const parsed = new URL(url!);
    expect(parsed.origin + parsed.pathname).toBe('https://id.example.com/oidc/logout');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      tenant: 't1',
      id_token_hint: 'header.payload.signature',
      post_logout_redirect_uri: 'https://trade.example.com/console/sign-in',
      client_id: 'console',
    });
  });

  it('has nowhere to go where the provider names no end_session_endpoint', () => {
    expect(
      endSessionUrl(
        { revocation_endpoint: 'https://oauth2.googleapis.com/revoke' },
        { clientId: 'c', idToken: 'x', postLogoutRedirectUri: 'https://t/console/sign-in' },
      ),
    ).toBeNull();
  });
});
