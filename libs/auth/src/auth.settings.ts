import { Expose, Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
} from 'class-validator';

const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const;

/** Settings of both authentication methods; shared by the gateway and the notifier. */
export class AuthSettings {
  /** The identity provider's published keys. Without it, only API keys authenticate. */
  @Expose({ name: 'AUTH_JWKS_URL' })
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  jwksUrl?: string;

  @Expose({ name: 'AUTH_JWT_ISSUER' })
  @IsOptional()
  @IsString()
  jwtIssuer?: string;

  @Expose({ name: 'AUTH_JWT_AUDIENCE' })
  @IsOptional()
  @IsString()
  jwtAudience?: string;

  /** Comma-separated allow-list; `none` and HMAC algorithms are never accepted. */
  @Expose({ name: 'AUTH_JWT_ALGORITHMS' })
  @Transform(({ value }) =>
    typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value,
  )
  @IsArray()
  @ArrayNotEmpty()
  @IsIn(JWT_ALGORITHMS, { each: true })
  jwtAlgorithms: string[] = ['RS256', 'ES256', 'EdDSA'];

  @Expose({ name: 'AUTH_JWT_CLOCK_TOLERANCE_S' })
  @IsInt()
  @Min(0)
  @Max(120)
  jwtClockToleranceS: number = 5;

  /**
   * The longest a browser-session token may live (`exp` less `iat`, or less
   * now where it names no `iat`): the contract's tokens live about 15
   * minutes, and a long-lived token cannot be taken back.
   */
  @Expose({ name: 'AUTH_JWT_MAX_LIFETIME_S' })
  @IsInt()
  @Min(60)
  @Max(86_400)
  jwtMaxLifetimeS: number = 3_600;

  @Expose({ name: 'AUTH_JWT_USER_CLAIM' })
  @IsString()
  jwtUserClaim: string = 'sub';

  @Expose({ name: 'AUTH_JWT_WALLET_CLAIM' })
  @IsString()
  jwtWalletClaim: string = 'wallet_address';
}
