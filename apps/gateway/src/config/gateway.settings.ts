import { Expose } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { AuthSettings } from '@sts/auth';
import {
  BooleanSetting,
  CommonSettings,
  CredentialsSettings,
  WebhookSecretsSettings,
} from '@sts/platform';
import { ConsoleSettings } from '../console/console.settings';

/** Every gateway setting; README.md (Settings) documents each with its default. */
export class GatewaySettings extends CommonSettings {
  @Expose({ name: 'GATEWAY_PORT' })
  @IsInt()
  @Min(0)
  @Max(65535)
  port: number = 3000;

  @Expose({ name: 'GATEWAY_HOST' })
  @IsString()
  host: string = '0.0.0.0';

  /** Port of the gateway's `/metrics` (with `/livez` and `/readyz` again), apart from the API. */
  @Expose({ name: 'GATEWAY_METRICS_PORT' })
  @IsInt()
  @Min(0)
  @Max(65535)
  metricsPort: number = 9460;

  /** Trust X-Forwarded-For from a load balancer (needed for API key IP allow-lists behind one). */
  @BooleanSetting('GATEWAY_TRUST_PROXY')
  @IsBoolean({ message: 'GATEWAY_TRUST_PROXY must be true or false' })
  trustProxy: boolean = false;

  /** Run pending migrations at start-up (under an advisory lock). */
  @BooleanSetting('GATEWAY_MIGRATE_ON_START')
  @IsBoolean({ message: 'GATEWAY_MIGRATE_ON_START must be true or false' })
  migrateOnStart: boolean = true;

  /**
   * Requests per second one caller may make (per API key, per browser session, or per IP for
   * unauthenticated calls), across every gateway replica (counted in Redis; per replica while
   * Redis does not answer). Past it: 429 rate_limited with Retry-After.
   */
  @Expose({ name: 'GATEWAY_RATE_LIMIT_PER_S' })
  @IsInt()
  @Min(1)
  rateLimitPerS: number = 100;

  /**
   * Creates run in groups: one transaction (two Postgres round trips and one commit) for every
   * create that waited while the groups in flight ran. Groups running at once, per replica: more
   * shortens the wait under light load, fewer makes bigger groups under heavy load.
   */
  @Expose({ name: 'GATEWAY_CREATE_GROUPS_IN_FLIGHT' })
  @IsInt()
  @Min(1)
  @Max(20)
  createGroupsInFlight: number = 2;

  /**
   * How long a group of creates waits on a lock held elsewhere (a wallet's cap lock in another
   * group) before it gives up and runs its creates one by one (a create alone waits up to the
   * Postgres query timeout).
   */
  @Expose({ name: 'GATEWAY_CREATE_GROUP_LOCK_WAIT_MS' })
  @IsInt()
  @Min(10)
  @Max(10_000)
  createGroupLockWaitMs: number = 250;

  /**
   * Creates that must be waiting before a group starts beside one already running; fewer wait
   * for it to end and start together. A group starts whatever waits when none runs. Groups of
   * one beside a running group paid a whole group's round trips each (at 20 connections 4 in
   * 10 groups, with 1 here): 4 put POST at 32-34 % of the bench's insert ceiling against 30-32.
   */
  @Expose({ name: 'GATEWAY_CREATE_GROUP_OVERLAP_MIN' })
  @IsInt()
  @Min(1)
  @Max(200)
  createGroupOverlapMin: number = 4;

  /**
   * How long after the newest group started fewer than `GATEWAY_CREATE_GROUP_OVERLAP_MIN`
   * creates wait for it: then they start beside it, so a group held on a lock elsewhere (up to
   * `GATEWAY_CREATE_GROUP_LOCK_WAIT_MS`) holds up no other create for longer.
   */
  @Expose({ name: 'GATEWAY_CREATE_GROUP_OVERLAP_AFTER_MS' })
  @IsInt()
  @Min(0)
  @Max(1_000)
  createGroupOverlapAfterMs: number = 10;

  /**
   * How long a create may take before it is answered 503 service_unavailable (Retry-After) if it
   * is still waiting for a group, or for the budget service: what a client waits for at least.
   * Postgres' own bounds (statement 3 s, read 4 s) still apply to a group already running.
   */
  @Expose({ name: 'GATEWAY_CREATE_DEADLINE_MS' })
  @IsInt()
  @Min(500)
  @Max(60_000)
  createDeadlineMs: number = 4_000;

  /** Creates in one group at most. */
  @Expose({ name: 'GATEWAY_CREATE_GROUP_MAX' })
  @IsInt()
  @Min(1)
  @Max(200)
  createGroupMax: number = 32;

  /** How often a venue's market list is refreshed in the background. */
  @Expose({ name: 'MARKETS_REFRESH_MS' })
  @IsInt()
  @Min(1000)
  marketsRefreshMs: number = 60_000;

  /**
   * Let users register webhooks whose host is (or resolves to) a loopback, private or
   * link-local address, and plain `http:` URLs: for a receiver on the developer's own machine
   * (`npm start` sets it). Off, a webhook URL must be `https:` and resolve to public addresses
   * only, so no user can make the service call what sits inside the deployment.
   */
  @BooleanSetting('WEBHOOKS_ALLOW_PRIVATE_ADDRESSES')
  @IsBoolean({ message: 'WEBHOOKS_ALLOW_PRIVATE_ADDRESSES must be true or false' })
  webhooksAllowPrivateAddresses: boolean = false;

  /** Base URL of the venue simulator; a paper venue is `${VENUE_SIM_URL}/venues/<id>` unless its registry entry has an endpoint. */
  @Expose({ name: 'VENUE_SIM_URL' })
  @IsString()
  venueSimUrl: string = 'http://127.0.0.1:7100';

  // Composed rather than inherited: these groups are shared with other services.
  auth: AuthSettings;
  credentials: CredentialsSettings;
  webhookSecrets: WebhookSecretsSettings;
  console: ConsoleSettings;
}
