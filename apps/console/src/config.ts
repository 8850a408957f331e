/** An OpenID Connect provider to sign in with (authorization code with PKCE). */
export interface ConsoleOidcConfig {
  /** The issuer identifier; its discovery document is under `/.well-known/openid-configuration`. */
  issuer: string;
  /** The console's client id at the provider (a public client). */
  client_id: string;
  scope: string;
  /** Which token the gateway accepts as the Bearer token (its audience setting decides). */
  bearer_token: 'id_token' | 'access_token';
}

/** What the gateway tells the console about its deployment (`GET /console/config.json`). */
export interface ConsoleConfig {
  /** The REST API's base path on this origin, e.g. `/api/v1`. */
  api_base: string;
  /** The notifier's WebSocket, e.g. `ws://127.0.0.1:3001/api/v1/ws`. */
  notifier_ws_url: string;
  /** The development identity provider (SIWE); null where another provider signs users in. */
  identity_url: string | null;
  /** An OpenID Connect provider; null (or absent, from an older gateway): none. */
  oidc?: ConsoleOidcConfig | null;
  /** Paper venues: the console may offer its development wallet. */
  paper: boolean;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch(`${import.meta.env.BASE_URL}config.json`, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) {
    throw new Error(`the console's settings could not be read (HTTP ${response.status})`);
  }
  return (await response.json()) as ConsoleConfig;
}
