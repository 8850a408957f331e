import { isHex, verifyMessage } from 'viem';
import { parseSiweMessage, validateSiweMessage, type SiweMessage } from 'viem/siwe';
import type { IdentityDevSettings } from '../config/identity-dev.settings';
import { IdentityError } from '../identity-error';
import type { SessionToken, SessionTokens } from '../tokens/session-tokens';
import type { NonceBook } from './nonce-book';

type ParsedSiwe = Partial<SiweMessage>;

/**
 * Sign-In with Ethereum (EIP-4361): a message naming one of our origins and
 * a nonce we issued, signed by the wallet it names, becomes a session token.
 * Externally owned accounts only (the signature is recovered, no chain is
 * asked about contract wallets): this provider is for development.
 */
export class SignIn {
  constructor(
    private readonly settings: IdentityDevSettings,
    private readonly nonces: NonceBook,
    private readonly tokens: SessionTokens,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async verify(text: string, signature: string): Promise<SessionToken> {
    const message = this.parse(text);
    this.checkOrigin(message);
    // Spent by any attempt that names it, whatever follows: one nonce, one try.
    if (!this.nonces.spend(message.nonce!)) {
      throw new IdentityError(401, 'nonce_invalid', 'nonce unknown, already used or expired');
    }
    const time = this.now();
    if (message.expirationTime && message.expirationTime.getTime() <= time.getTime()) {
      throw new IdentityError(401, 'message_expired', 'the message has expired');
    }
    if (message.notBefore && message.notBefore.getTime() > time.getTime()) {
      throw new IdentityError(401, 'message_expired', 'the message is not valid yet (notBefore)');
    }
    if (!validateSiweMessage({ message, domain: message.domain, nonce: message.nonce, time })) {
      throw new IdentityError(400, 'invalid_request', 'not a valid EIP-4361 message');
    }
    if (!isHex(signature) || !(await this.signedBy(message.address!, text, signature))) {
      throw new IdentityError(
        401,
        'invalid_signature',
        'the signature was not made by the message address',
      );
    }
    return this.tokens.issue(message.address!);
  }

  private parse(text: string): ParsedSiwe {
    let message: ParsedSiwe;
    try {
      message = parseSiweMessage(text);
    } catch {
      message = {};
    }
    const complete =
      message.address !== undefined &&
      message.domain !== undefined &&
      message.uri !== undefined &&
      message.nonce !== undefined &&
      message.version === '1' &&
      message.chainId !== undefined;
    if (!complete) {
      throw new IdentityError(400, 'invalid_request', 'message is not an EIP-4361 message');
    }
    return message;
  }

  /** The domain is an allowed origin's host and the uri lies on that same origin. */
  private checkOrigin(message: ParsedSiwe): void {
    let uriOrigin: string | undefined;
    try {
      uriOrigin = new URL(message.uri!).origin;
    } catch {
      uriOrigin = undefined;
    }
    const allowed = this.settings.allowedOrigins.some((origin) => {
      const url = new URL(origin);
      return url.host === message.domain && url.origin === uriOrigin;
    });
    if (!allowed) {
      throw new IdentityError(
        401,
        'domain_mismatch',
        `domain ${message.domain} / uri ${message.uri} is not an origin this provider signs in for`,
      );
    }
  }

  private async signedBy(
    address: `0x${string}`,
    text: string,
    signature: `0x${string}`,
  ): Promise<boolean> {
    try {
      return await verifyMessage({ address, message: text, signature });
    } catch {
      return false;
    }
  }
}
