import { loadGatewayConfig } from './load-gateway-settings';

/** The gateway's boolean settings: their default unless set, and strictly true or false. */
describe("the gateway's boolean settings", () => {
  /** The settings the gateway cannot boot without. */
  const BASE = {
    CREDENTIALS_KEK: Buffer.alloc(32, 7).toString('base64'),
    WEBHOOK_SECRETS_KEK: Buffer.alloc(32, 8).toString('base64'),
  };
  const settingsWith = (variable: string, value?: string) =>
    loadGatewayConfig({ ...BASE, ...(value === undefined ? {} : { [variable]: value }) }).settings;
  const read = {
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: (value?: string) =>
      settingsWith('WEBHOOKS_ALLOW_PRIVATE_ADDRESSES', value).webhooksAllowPrivateAddresses,
    GATEWAY_TRUST_PROXY: (value?: string) => settingsWith('GATEWAY_TRUST_PROXY', value).trustProxy,
    GATEWAY_MIGRATE_ON_START: (value?: string) =>
      settingsWith('GATEWAY_MIGRATE_ON_START', value).migrateOnStart,
    CONSOLE_PAPER: (value?: string) => settingsWith('CONSOLE_PAPER', value).console.paper,
  };

  it('reads false as false: a proxy not trusted, migrations not run, no paper wallet', () => {
    for (const [variable, setting] of Object.entries(read)) {
      expect({ variable, value: setting('false') }).toEqual({ variable, value: false });
      expect({ variable, value: setting('true') }).toEqual({ variable, value: true });
    }
  });

  it('keeps each default when unset or empty', () => {
    expect(read.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES()).toBe(false);
    expect(read.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES('')).toBe(false);
    expect(read.GATEWAY_TRUST_PROXY()).toBe(false);
    expect(read.GATEWAY_MIGRATE_ON_START()).toBe(true);
    expect(read.CONSOLE_PAPER()).toBeUndefined();
  });

  it('refuses anything else at boot, naming the setting', () => {
    for (const variable of Object.keys(read)) {
      for (const value of ['yes', 'TRUE', '1']) {
        expect(() => settingsWith(variable, value)).toThrow(new RegExp(variable));
      }
    }
  });
});
