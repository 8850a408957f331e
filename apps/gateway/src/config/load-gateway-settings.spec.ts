import { loadGatewayConfig } from './load-gateway-settings';

/** The two keys the gateway boots with: one for venue credentials, one for webhook secrets. */
describe("the gateway's keys", () => {
  const CREDENTIALS_KEK = Buffer.alloc(32, 7).toString('base64');
  const WEBHOOK_SECRETS_KEK = Buffer.alloc(32, 8).toString('base64');

  it('refuses to boot without the webhook secrets key, naming it', () => {
    expect(() => loadGatewayConfig({ CREDENTIALS_KEK })).toThrow(/WEBHOOK_SECRETS_KEK/);
    expect(() => loadGatewayConfig({ CREDENTIALS_KEK, WEBHOOK_SECRETS_KEK: 'not-a-key' })).toThrow(
      /WEBHOOK_SECRETS_KEK must be base64 of 32 bytes/,
    );
  });

  it('keeps the two keys apart, each with its own id and rotation list', () => {
    const { settings } = loadGatewayConfig({
      CREDENTIALS_KEK,
      WEBHOOK_SECRETS_KEK,
      WEBHOOK_SECRETS_OLD_KEKS: `w0:${CREDENTIALS_KEK}`,
    });
    expect(settings.credentials).toMatchObject({
      credentialsKek: CREDENTIALS_KEK,
      credentialsKekId: 'k1',
    });
    expect(settings.webhookSecrets).toEqual({
      webhookSecretsKek: WEBHOOK_SECRETS_KEK,
      webhookSecretsKekId: 'w1',
      webhookSecretsOldKeks: `w0:${CREDENTIALS_KEK}`,
    });
  });

  it('refuses to boot when an egress binds an address this host does not hold', () => {
    // 198.51.100.0/24 is documentation space: no interface of a test host holds it.
    const load = () =>
      loadGatewayConfig({
        CREDENTIALS_KEK,
        WEBHOOK_SECRETS_KEK,
        EGRESS_PLAN: JSON.stringify({
          egresses: [
            { id: 'a', bind: '127.0.0.1' },
            { id: 'b', bind: '198.51.100.9' },
          ],
        }),
      });
    expect(load).toThrow(
      'EGRESS_PLAN: egress "b" binds 198.51.100.9, which is not an address of this host',
    );
  });
});
