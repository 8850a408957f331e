import { ConfigError } from '@sts/platform';
import { loadNotifierSettings } from './load-notifier-settings';
import { DEFAULT_RETRY_SCHEDULE_MS } from './webhook.settings';

const KEK = Buffer.alloc(32, 7).toString('base64');

describe('notifier settings', () => {
  it('runs webhooks by default, with the Standard Webhooks schedule and private addresses refused', () => {
    const { webhooks, webhookSecrets, trustProxy } = loadNotifierSettings({
      WEBHOOK_SECRETS_KEK: KEK,
    });
    expect(webhooks).toMatchObject({
      enabled: true,
      allowPrivateAddresses: false,
      timeoutMs: 10_000,
      retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
      disableAfterMs: 5 * 24 * 3600_000,
    });
    // At least a day of retries.
    expect(DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, delay) => sum + delay, 0)).toBeGreaterThan(
      24 * 3600_000,
    );
    expect(webhookSecrets).toMatchObject({ webhookSecretsKek: KEK, webhookSecretsKekId: 'w1' });
    expect(trustProxy).toBe(false);
  });

  it('reads "false" as false and a schedule in milliseconds', () => {
    const settings = loadNotifierSettings({
      WEBHOOK_SECRETS_KEK: KEK,
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'false',
      WEBHOOKS_RETRY_SCHEDULE_MS: '200, 400,800',
      NOTIFIER_TRUST_PROXY: 'false',
    });
    expect(settings.webhooks.allowPrivateAddresses).toBe(false);
    expect(settings.webhooks.retryScheduleMs).toEqual([200, 400, 800]);
    expect(settings.trustProxy).toBe(false);
    expect(
      loadNotifierSettings({ WEBHOOK_SECRETS_KEK: KEK, WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' })
        .webhooks.allowPrivateAddresses,
    ).toBe(true);
  });

  it('needs the webhook secrets key for webhooks, never the credentials key', () => {
    const credentialsKekOnly = { CREDENTIALS_KEK: KEK };
    expect(() => loadNotifierSettings({})).toThrow(/WEBHOOK_SECRETS_KEK/);
    expect(() => loadNotifierSettings(credentialsKekOnly)).toThrow(/WEBHOOK_SECRETS_KEK/);
    const settings = loadNotifierSettings({ ...credentialsKekOnly, WEBHOOK_SECRETS_KEK: KEK });
    expect(JSON.stringify(settings)).not.toContain('credentialsKek');
    expect(loadNotifierSettings({ WEBHOOKS_ENABLED: 'false' }).webhookSecrets).toBeUndefined();
  });

  it('refuses a schedule that is not milliseconds', () => {
    expect(() =>
      loadNotifierSettings({ WEBHOOK_SECRETS_KEK: KEK, WEBHOOKS_RETRY_SCHEDULE_MS: '5s,1m' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadNotifierSettings({ WEBHOOK_SECRETS_KEK: KEK, WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'yes' }),
    ).toThrow(/WEBHOOKS_ALLOW_PRIVATE_ADDRESSES/);
  });
});
