import { AuthSettings } from '@sts/auth';
import { loadConfig, WebhookSecretsSettings } from '@sts/platform';
import { NotifierSettings } from './notifier.settings';
import { WebhookSettings } from './webhook.settings';

export function loadNotifierSettings(
  env: Record<string, string | undefined> = process.env,
): NotifierSettings {
  const settings = loadConfig(NotifierSettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  settings.webhooks = loadConfig(WebhookSettings, env);
  if (settings.webhooks.enabled) {
    // Without the key that opens the signing secrets no delivery can be signed.
    settings.webhookSecrets = loadConfig(WebhookSecretsSettings, env);
  }
  return settings;
}
