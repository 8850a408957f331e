import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@sts/platform';
import type { IdentityDevSettings } from './config/identity-dev.settings';
import { createIdentityServer } from './http/identity-server';
import { NonceBook } from './siwe/nonce-book';
import { SignIn } from './siwe/sign-in';
import { SessionTokens } from './tokens/session-tokens';

export interface RunningIdentityDev {
  port: number;
  /** e.g. http://127.0.0.1:3005 */
  url: string;
  /** What AUTH_JWKS_URL of the gateway and the notifier points at. */
  jwksUrl: string;
  /** AUTH_JWKS_URL, AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE for a service that trusts this provider. */
  authEnv(): Record<string, string>;
  close(): Promise<void>;
}

/** Wires one provider and listens (port 0 picks a free port: specs start it in-process). */
export async function startIdentityDev(
  settings: IdentityDevSettings,
  logger: Logger = createLogger('identity-dev', settings.logLevel, settings.logFile),
): Promise<RunningIdentityDev> {
  const tokens = await SessionTokens.create(settings);
  const nonces = new NonceBook();
  const signIn = new SignIn(settings, nonces, tokens);
  const server = createIdentityServer({ settings, nonces, signIn, tokens, logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host;
  const url = `http://${host}:${port}`;
  const jwksUrl = `${url}/.well-known/jwks.json`;
  logger.info({ url, issuer: settings.issuer, audience: settings.audience }, 'identity-dev up');
  return {
    port,
    url,
    jwksUrl,
    authEnv: () => ({
      AUTH_JWKS_URL: jwksUrl,
      AUTH_JWT_ISSUER: settings.issuer,
      AUTH_JWT_AUDIENCE: settings.audience,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
