import { createHash, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type KeyLike } from 'jose';
import type { IdentityDevSettings } from '../config/identity-dev.settings';
import { IdentityError } from '../identity-error';

const ALGORITHM = 'ES256';

export interface SessionToken {
  token: string;
  expires_at: string;
  user_id: string;
  wallet_address: string;
}

/**
 * The user id of a wallet: a UUID derived from its address, so the same
 * wallet is the same user across restarts of this provider (and the
 * gateway's account, created on the first /auth/verify, is found again).
 */
export function userIdOf(walletAddress: string): string {
  const hash = createHash('sha256')
    .update(`sts-identity-dev:${walletAddress.toLowerCase()}`)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5 layout (name-based, SHA)
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Signs session JWTs with one ES256 key and publishes its public half as a JWKS. */
export class SessionTokens {
  private constructor(
    private readonly settings: IdentityDevSettings,
    private readonly privateKey: KeyLike,
    private readonly publicKey: KeyLike,
    private readonly publicJwk: JWK,
  ) {}

  static async create(settings: IdentityDevSettings): Promise<SessionTokens> {
    let privateKey: KeyLike;
    let publicKey: KeyLike;
    if (settings.signingKeyPem) {
      const keyObject = createPrivateKey(settings.signingKeyPem);
      if (keyObject.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
        throw new Error('IDENTITY_DEV_SIGNING_KEY_PEM must be a P-256 (ES256) private key');
      }
      privateKey = keyObject;
      publicKey = createPublicKey(keyObject);
    } else {
      ({ privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true }));
    }
    const jwk = await exportJWK(publicKey);
    const kid = createHash('sha256').update(JSON.stringify(jwk)).digest('base64url').slice(0, 16);
    return new SessionTokens(settings, privateKey, publicKey, {
      ...jwk,
      kid,
      alg: ALGORITHM,
      use: 'sig',
    });
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async issue(walletAddress: string): Promise<SessionToken> {
    const wallet = walletAddress.toLowerCase();
    const userId = userIdOf(wallet);
    const { auth } = this.settings;
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + this.settings.tokenTtlS;
    const token = await new SignJWT({
      [auth.jwtUserClaim]: userId,
      [auth.jwtWalletClaim]: wallet,
    })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.publicJwk.kid, typ: 'JWT' })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.privateKey);
    return {
      token,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      user_id: userId,
      wallet_address: wallet,
    };
  }

  /** The wallet of a token we signed that has not expired; 401 unauthorized otherwise. */
  async walletOf(token: string): Promise<string> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: [ALGORITHM],
        requiredClaims: ['exp'],
      });
      const wallet = payload[this.settings.auth.jwtWalletClaim];
      if (typeof wallet !== 'string' || !/^0x[0-9a-f]{40}$/.test(wallet)) {
        throw new Error('no wallet claim');
      }
      return wallet;
    } catch {
      throw new IdentityError(401, 'unauthorized', 'token expired or invalid: sign in again');
    }
  }
}
