import { AuthSettings } from '@sts/auth';
import {
  checkEgressBinds,
  CredentialsSettings,
  loadConfig,
  loadEgressPlan,
  loadVenueRegistry,
  WebhookSecretsSettings,
} from '@sts/platform';
import type { EgressPlan, VenueRegistry } from '@sts/domain';
import { ConsoleSettings } from '../console/console.settings';
import { GatewaySettings } from './gateway.settings';

export interface GatewayConfig {
  settings: GatewaySettings;
  venues: VenueRegistry;
  /** Which egress address each venue account's requests leave from (`EGRESS_PLAN`). */
  egressPlan: EgressPlan;
}

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  const settings = loadConfig(GatewaySettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  settings.credentials = loadConfig(CredentialsSettings, env);
  settings.webhookSecrets = loadConfig(WebhookSecretsSettings, env);
  settings.console = loadConfig(ConsoleSettings, env);
  const egressPlan = loadEgressPlan(env);
  // The gateway's venue clients bind to these: a wrong one stops boot, not a request.
  checkEgressBinds(egressPlan);
  return { settings, venues: loadVenueRegistry(env), egressPlan };
}
