import { loadGatewayConfig } from '../config/load-gateway-settings';
import { consoleConfigOf } from './console-config';

/** What /console/config.json says about an OpenID Connect provider, from the settings alone. */
describe('the console config: OpenID Connect', () => {
  /** The settings the gateway cannot boot without. */
  const BASE = {
    CREDENTIALS_KEK: Buffer.alloc(32, 7).toString('base64'),
    WEBHOOK_SECRETS_KEK: Buffer.alloc(32, 8).toString('base64'),
  };
  const load = (env: Record<string, string>) => loadGatewayConfig({ ...BASE, ...env });
  const oidcOf = (env: Record<string, string>) => consoleConfigOf(load(env)).oidc;
  const provider = { OIDC_ISSUER_URL: 'https://id.example.com/realm', OIDC_CLIENT_ID: 'console' };

  it('names no provider without the settings', () => {
    expect(oidcOf({})).toBeNull();
  });

  it('sends the ID token where the gateway checks the console as the audience', () => {
    expect(oidcOf({ ...provider, AUTH_JWT_AUDIENCE: 'console' })).toEqual({
      issuer: 'https://id.example.com/realm',
      client_id: 'console',
      scope: 'openid',
      bearer_token: 'id_token',
    });
    expect(oidcOf(provider)?.bearer_token).toBe('id_token');
  });

  it("sends the access token where the gateway checks an API's audience", () => {
    const oidc = oidcOf({
      ...provider,
      AUTH_JWT_AUDIENCE: 'spread-trading',
      OIDC_SCOPE: 'openid wallet',
    });
    expect(oidc).toMatchObject({ scope: 'openid wallet', bearer_token: 'access_token' });
  });

  it('refuses an issuer without a client id, and the reverse, at boot', () => {
    expect(() => load({ OIDC_ISSUER_URL: provider.OIDC_ISSUER_URL })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => load({ OIDC_CLIENT_ID: 'console' })).toThrow(/OIDC_ISSUER_URL/);
  });

  it('refuses a scope without openid', () => {
    expect(() => load({ ...provider, OIDC_SCOPE: 'profile' })).toThrow(/OIDC_SCOPE/);
  });
});
