import { AuthSettings } from '@sts/auth';
import {
  CredentialsSettings,
  loadConfig,
  loadVenueRegistry,
  WebhookSecretsSettings,
} from '@sts/platform';
import type { VenueRegistry } from '@sts/domain';
import { ConsoleSettings } from '../console/console.settings';
import { GatewaySettings } from './gateway.settings';

export interface GatewayConfig {
  settings: GatewaySettings;
  venues: VenueRegistry;
}

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  const settings = loadConfig(GatewaySettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  settings.credentials = loadConfig(CredentialsSettings, env);
  settings.webhookSecrets = loadConfig(WebhookSecretsSettings, env);
  settings.console = loadConfig(ConsoleSettings, env);
  return { settings, venues: loadVenueRegistry(env) };
}
