import { Expose, Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';

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
  @Expose({ name: 'CONSOLE_PAPER' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  paper?: boolean;
}
