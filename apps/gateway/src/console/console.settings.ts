import { BooleanSetting } from '@sts/platform';
import { Expose } from 'class-transformer';
import {
  IsBoolean,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MinLength,
  ValidateIf,
} from 'class-validator';

/** Where the trader console's build is and what its config.json tells it; README.md (Settings, Gateway). */
export class ConsoleSettings {
  /** The console's build (index.html and assets/); unset: /console answers 404. */
  @Expose({ name: 'CONSOLE_DIR' })
  @IsOptional()
  @IsString()
  dir?: string;

  /** The notifier's socket as the browser reaches it. */
  @Expose({ name: 'CONSOLE_NOTIFIER_WS_URL' })
  @Matches(/^wss?:\/\/\S+$/, { message: 'CONSOLE_NOTIFIER_WS_URL must be a ws:// or wss:// URL' })
  notifierWsUrl: string = 'ws://127.0.0.1:3001/api/v1/ws';

  /** The development identity provider the console signs in with; unset: null (production's own provider). */
  @Expose({ name: 'CONSOLE_IDENTITY_URL' })
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+$/, {
    message: 'CONSOLE_IDENTITY_URL must be an origin (http[s]://host[:port])',
  })
  identityUrl?: string;

  /** Offer the development wallet; unset: true when every venue of the registry is paper. */
  @BooleanSetting('CONSOLE_PAPER')
  @IsOptional()
  @IsBoolean({ message: 'CONSOLE_PAPER must be true or false' })
  paper?: boolean;

  /**
   * An OpenID Connect provider the console signs in with (authorization code
   * with PKCE); unset: no such sign-in. Its issuer identifier, as its
   * discovery document names it.
   */
  @Expose({ name: 'OIDC_ISSUER_URL' })
  @ValidateIf((settings: ConsoleSettings) => oidcConfigured(settings))
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'OIDC_ISSUER_URL must be an http(s) URL, set with OIDC_CLIENT_ID' },
  )
  oidcIssuerUrl?: string;

  /** The console's client id at that provider (a public client: no secret). */
  @Expose({ name: 'OIDC_CLIENT_ID' })
  @ValidateIf((settings: ConsoleSettings) => oidcConfigured(settings))
  @IsString({ message: 'OIDC_CLIENT_ID must be set with OIDC_ISSUER_URL' })
  @MinLength(1)
  oidcClientId?: string;

  /**
   * The scopes the console asks for; the console adds `offline_access` where the provider's
   * discovery document lists it. No wallet claim is needed (one is linked after sign-in).
   */
  @Expose({ name: 'OIDC_SCOPE' })
  @IsString()
  @Matches(/(^|\s)openid(\s|$)/, { message: 'OIDC_SCOPE must include openid' })
  oidcScope: string = 'openid';
}

/** The issuer and the client id come together: one without the other is a mistake, refused at boot. */
function oidcConfigured(settings: ConsoleSettings): boolean {
  return settings.oidcIssuerUrl !== undefined || settings.oidcClientId !== undefined;
}
