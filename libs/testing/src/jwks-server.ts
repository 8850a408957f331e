import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose';

export interface JwtClaims {
  sub?: string;
  wallet_address?: string;
  [claim: string]: unknown;
}

export interface SignOptions {
  issuer?: string;
  audience?: string;
  /** Lifetime from `iat`; null for a token with no `exp` at all. */
  expiresInSeconds?: number | null;
  /** Leave `iat` out (the token's lifetime then counts from now). */
  withoutIssuedAt?: boolean;
  /** Seconds from now; negative for a token issued in the past. */
  issuedAtOffsetSeconds?: number;
  kid?: string;
  key?: KeyLike;
}

/**
 * A real identity provider stand-in: serves a JWKS over HTTP on loopback and
 * signs RS256 tokens with the matching private key.
 */
export class JwksServer {
  readonly issuer = 'https://id.test.local/';
  readonly audience = 'spread-trading';
  private server?: Server;
  private privateKey!: KeyLike;
  private publicJwk!: JWK;
  readonly kid = 'test-key-1';
  url = '';

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    this.privateKey = privateKey;
    this.publicJwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: 'RS256', use: 'sig' };
    this.server = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [this.publicJwk] }));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/.well-known/jwks.json`;
    return this;
  }

  async sign(claims: JwtClaims, options: SignOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000) + (options.issuedAtOffsetSeconds ?? 0);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? this.kid })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience);
    if (!options.withoutIssuedAt) {
      jwt.setIssuedAt(now);
    }
    if (options.expiresInSeconds !== null) {
      jwt.setExpirationTime(now + (options.expiresInSeconds ?? 900));
    }
    return jwt.sign(options.key ?? this.privateKey);
  }

  /** Settings a service under test needs to trust this provider. */
  env(): Record<string, string> {
    return {
      AUTH_JWKS_URL: this.url,
      AUTH_JWT_ISSUER: this.issuer,
      AUTH_JWT_AUDIENCE: this.audience,
    };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
