import type { Principal, RequestAuthenticator } from '@sts/auth';
import { AppError } from '@sts/platform';

export interface SocketCredentials {
  /** X-API-Key header or `{"op":"auth","api_key":...}`. */
  apiKey?: string;
  /** `{"op":"auth","token":"<JWT>"}`. */
  token?: string;
  /** The handshake's Authorization header (`Bearer <JWT>`). */
  authorization?: string;
  clientIp: string;
}

/**
 * Turns a socket's credentials into a Principal exactly as the gateway does
 * (the shared RequestAuthenticator: expiry, revocation, IP allow-list), then
 * requires the one scope every subscription needs.
 */
export class AuthenticateSocket {
  constructor(private readonly authenticator: RequestAuthenticator) {}

  async execute(credentials: SocketCredentials): Promise<Principal> {
    const principal = await this.authenticator.authenticate({
      apiKey: credentials.apiKey,
      authorization:
        credentials.token === undefined ? credentials.authorization : `Bearer ${credentials.token}`,
      clientIp: credentials.clientIp,
    });
    if (!principal.scopes.has('trades:read')) {
      throw new AppError('insufficient_scope', 'credentials lack scope trades:read');
    }
    return principal;
  }
}
