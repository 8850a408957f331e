import { AuthSettings } from '@sts/auth';
import { loadConfig } from '@sts/platform';
import { NotifierSettings } from './notifier.settings';

export function loadNotifierSettings(
  env: Record<string, string | undefined> = process.env,
): NotifierSettings {
  const settings = loadConfig(NotifierSettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  return settings;
}
