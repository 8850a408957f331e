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

/** Auth0's default ID token lifetime, the longest of the major providers' defaults. */
export const DEFAULT_JWT_MAX_LIFETIME_S = 36_000;

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
   * now where it names no `iat`). A token cannot be taken back before it
   * expires, so shorter is safer, but the default must admit the tokens the
   * major providers issue as they come: Auth0's ID token lives 36,000 s (10
   * hours), Google's, Entra's and Keycloak's an hour or less. 10 hours is the
   * longest of those defaults and no more (docs/sign-in-providers.md); the
   * development provider's tokens live 15 minutes, as the contract's do.
   */
  @Expose({ name: 'AUTH_JWT_MAX_LIFETIME_S' })
  @IsInt()
  @Min(60)
  @Max(86_400)
  jwtMaxLifetimeS: number = DEFAULT_JWT_MAX_LIFETIME_S;

  @Expose({ name: 'AUTH_JWT_USER_CLAIM' })
  @IsString()
  jwtUserClaim: string = 'sub';

  /**
   * The claim naming the wallet the user signed in with, where the provider
   * puts one (a SIWE provider does; Google, Entra, Auth0 and Keycloak as they
   * come do not): a token without it is a session too, whose account links
   * its wallets afterwards by signing the gateway's challenge.
   */
  @Expose({ name: 'AUTH_JWT_WALLET_CLAIM' })
  @IsString()
  jwtWalletClaim: string = 'wallet_address';
}
