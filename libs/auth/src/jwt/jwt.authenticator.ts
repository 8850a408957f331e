import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '@sts/platform';
import type { AuthSettings } from '../auth.settings';
import { SCOPES, type Principal } from '../principal';

/**
 * Verifies browser-session JWTs on every request against the provider's JWKS
 * (cached by jose, refetched when an unknown `kid` appears). A JWT carries
 * every scope; what makes it special is that it alone may change account state.
 */
export class JwtAuthenticator {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly settings: AuthSettings) {
    if (settings.jwksUrl) {
      this.jwks = createRemoteJWKSet(new URL(settings.jwksUrl), {
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: 5_000,
      });
    }
  }

  async authenticate(token: string): Promise<Principal> {
    if (!this.jwks) {
      throw new AppError('unauthorized', 'browser sessions are not configured');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.settings.jwtIssuer,
        audience: this.settings.jwtAudience,
        algorithms: this.settings.jwtAlgorithms,
        clockTolerance: this.settings.jwtClockToleranceS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (identityProviderUnreachable(error)) {
        // The token may well be good: a 401 would sign the browser out for the provider's outage.
        throw new AppError(
          'service_unavailable',
          "the identity provider's keys cannot be read to check the token; retry",
          { reason: 'identity_provider', cause: error },
        );
      }
      throw new AppError('unauthorized', describe(error), { cause: error });
    }
    this.checkLifetime(payload);
    const userId = payload[this.settings.jwtUserClaim];
    if (typeof userId !== 'string' || userId.length === 0 || userId.length > 200) {
      throw new AppError('unauthorized', `token has no ${this.settings.jwtUserClaim} claim`);
    }
    const wallet = payload[this.settings.jwtWalletClaim];
    return {
      userId,
      method: 'jwt',
      scopes: new Set(SCOPES),
      walletAddress: typeof wallet === 'string' ? wallet.toLowerCase() : undefined,
      expiresAt: new Date((payload.exp ?? 0) * 1000),
    };
  }

  /** A token that lives longer than the setting allows is refused, however valid its signature. */
  private checkLifetime(payload: JWTPayload): void {
    const { jwtMaxLifetimeS, jwtClockToleranceS } = this.settings;
    const from = payload.iat ?? Math.floor(Date.now() / 1000);
    const lifetimeS = (payload.exp ?? 0) - from;
    if (lifetimeS > jwtMaxLifetimeS + jwtClockToleranceS) {
      throw new AppError(
        'unauthorized',
        `token lives ${lifetimeS} s, longer than the ${jwtMaxLifetimeS} s allowed`,
      );
    }
  }
}

/**
 * The JWKS could not be fetched (timeout, refused connection, a broken
 * answer), as opposed to a token that fails verification. jose raises JOSE
 * errors for the latter; a fetch failure surfaces as a plain network error.
 */
function identityProviderUnreachable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return true;
  }
  return !(error instanceof errors.JOSEError);
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) {
    return 'token expired';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `token ${error.claim} claim rejected`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return 'token signed by an unknown key';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return 'token algorithm not allowed';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'token signature invalid';
  }
  return 'invalid token';
}
