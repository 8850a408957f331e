import { AuthSettings } from '@sts/auth';
import { CredentialsSettings, loadConfig } from '@sts/platform';
import { NotifierSettings } from './notifier.settings';
import { WebhookSettings } from './webhook.settings';

export function loadNotifierSettings(
  env: Record<string, string | undefined> = process.env,
): NotifierSettings {
  const settings = loadConfig(NotifierSettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  settings.webhooks = loadConfig(WebhookSettings, env);
  if (settings.webhooks.enabled) {
    // Webhook secrets are sealed with the credentials' key: without it no delivery can be signed.
    settings.credentials = loadConfig(CredentialsSettings, env);
  }
  return settings;
}
