import { loadGatewayConfig } from './load-gateway-settings';

/** WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: off unless set, and strictly true or false. */
describe('the webhook private-address setting', () => {
  /** The one setting the gateway cannot boot without. */
  const BASE = { CREDENTIALS_KEK: Buffer.alloc(32, 7).toString('base64') };
  const allowed = (value?: string) =>
    loadGatewayConfig({
      ...BASE,
      ...(value === undefined ? {} : { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: value }),
    }).settings.webhooksAllowPrivateAddresses;

  it('is off by default, and set by true or false', () => {
    expect(allowed()).toBe(false);
    expect(allowed('')).toBe(false);
    expect(allowed('true')).toBe(true);
    expect(allowed('false')).toBe(false);
  });

  it('refuses anything else at boot, naming the setting', () => {
    for (const value of ['yes', 'TRUE', '1']) {
      expect(() => allowed(value)).toThrow(/WEBHOOKS_ALLOW_PRIVATE_ADDRESSES/);
    }
  });
});
