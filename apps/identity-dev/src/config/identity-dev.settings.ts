import { Expose, Transform } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AuthSettings } from '@sts/auth';
import { CommonSettings, loadConfig } from '@sts/platform';

/** When AUTH_JWT_ISSUER / AUTH_JWT_AUDIENCE are unset (the gateway must then be told the same). */
export const DEFAULT_ISSUER = 'urn:sts:identity-dev';
export const DEFAULT_AUDIENCE = 'spread-trading';

/** The development identity provider's settings; each is described in apps/identity-dev/README.md. */
export class IdentityDevSettings extends CommonSettings {
  @Expose({ name: 'IDENTITY_DEV_PORT' })
  @IsInt()
  @Min(0)
  @Max(65535)
  port: number = 3005;

  /** Loopback by default: a development provider signs anyone in who holds a key. */
  @Expose({ name: 'IDENTITY_DEV_HOST' })
  @IsString()
  host: string = '127.0.0.1';

  /**
   * Origins a SIWE message may name (its `domain` is the origin's host, its
   * `uri` must be on the origin), also the origins CORS lets call us: the
   * gateway's, where the console runs.
   */
  @Expose({ name: 'IDENTITY_DEV_ALLOWED_ORIGINS' })
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
      : value,
  )
  @IsArray()
  @ArrayNotEmpty()
  @IsString({ each: true })
  allowedOrigins: string[] = ['http://127.0.0.1:3000', 'http://localhost:3000'];

  /** Lifetime of a session token (`exp` - `iat`). */
  @Expose({ name: 'IDENTITY_DEV_TOKEN_TTL_S' })
  @IsInt()
  @Min(10)
  @Max(86_400)
  tokenTtlS: number = 900;

  /** A PKCS#8 PEM of a P-256 key; without it a key is generated at boot (tokens die with the process). */
  @Expose({ name: 'IDENTITY_DEV_SIGNING_KEY_PEM' })
  @IsOptional()
  @IsString()
  signingKeyPem?: string;

  // The claims the gateway and notifier read (AUTH_JWT_*): one source for both sides.
  auth: AuthSettings;

  get issuer(): string {
    return this.auth.jwtIssuer ?? DEFAULT_ISSUER;
  }

  get audience(): string {
    return this.auth.jwtAudience ?? DEFAULT_AUDIENCE;
  }
}

export function loadIdentityDevSettings(
  env: Record<string, string | undefined> = process.env,
): IdentityDevSettings {
  const settings = loadConfig(IdentityDevSettings, env);
  settings.auth = loadConfig(AuthSettings, env);
  for (const origin of settings.allowedOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) {
      throw new Error(
        `IDENTITY_DEV_ALLOWED_ORIGINS: ${origin} is not an origin (scheme://host[:port])`,
      );
    }
  }
  return settings;
}
