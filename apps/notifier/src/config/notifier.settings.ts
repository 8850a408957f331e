import { Expose } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AuthSettings } from '@sts/auth';
import { BooleanSetting, CommonSettings, type WebhookSecretsSettings } from '@sts/platform';
import type { WebhookSettings } from './webhook.settings';

/** Every notifier setting; apps/notifier/README.md (Settings) documents each with its default. */
export class NotifierSettings extends CommonSettings {
  @Expose({ name: 'NOTIFIER_PORT' })
  @IsInt()
  @Min(0)
  @Max(65535)
  port: number = 3001;

  @Expose({ name: 'NOTIFIER_HOST' })
  @IsString()
  host: string = '0.0.0.0';

  /** Take the client IP from X-Forwarded-For (API key IP allow-lists behind a load balancer). */
  @BooleanSetting('NOTIFIER_TRUST_PROXY')
  @IsBoolean()
  trustProxy: boolean = false;

  /** A socket without header credentials must send its auth message within this (decisions 5: 5 s). */
  @Expose({ name: 'NOTIFIER_AUTH_TIMEOUT_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  authTimeoutMs: number = 5_000;

  /** How often live API-key sockets are re-checked for revocation and expiry. */
  @Expose({ name: 'NOTIFIER_AUTH_RECHECK_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  authRecheckMs: number = 3_000;

  /** Server ping period; a socket that has not answered the previous ping is dropped. */
  @Expose({ name: 'NOTIFIER_HEARTBEAT_INTERVAL_MS' })
  @IsInt()
  @Min(100)
  @Max(300_000)
  heartbeatIntervalMs: number = 15_000;

  /** A socket whose unsent bytes pass this is a slow consumer and is closed with 4008. */
  @Expose({ name: 'NOTIFIER_MAX_BUFFERED_BYTES' })
  @IsInt()
  @Min(1_024)
  @Max(256 * 1024 * 1024)
  maxBufferedBytes: number = 1024 * 1024;

  /** Largest client message accepted; a bigger one closes the socket with 1009. */
  @Expose({ name: 'NOTIFIER_MAX_MESSAGE_BYTES' })
  @IsInt()
  @Min(256)
  @Max(1024 * 1024)
  maxMessageBytes: number = 16 * 1024;

  /** Single-trade subscriptions one socket may hold (all-of-my-trades is one more). */
  @Expose({ name: 'NOTIFIER_MAX_TRADE_SUBSCRIPTIONS' })
  @IsInt()
  @Min(1)
  @Max(100_000)
  maxTradeSubscriptions: number = 1_000;

  /** Shown in NATS connection lists and logs; defaults to notifier-<pid>. */
  /** Port of the notifier's `/metrics` (with `/livez` and `/readyz` again), apart from its sockets. */
  @Expose({ name: 'NOTIFIER_METRICS_PORT' })
  @IsInt()
  @Min(0)
  @Max(65535)
  metricsPort: number = 9461;

  @Expose({ name: 'NOTIFIER_INSTANCE_ID' })
  @IsOptional()
  @IsString()
  instanceId?: string;

  // Composed rather than inherited: the same group configures the gateway.
  auth: AuthSettings;

  webhooks: WebhookSettings;

  /**
   * The key that opens webhook signing secrets; read only when webhooks are
   * enabled. Never CREDENTIALS_KEK: this internet-facing service holds no
   * venue credential's key.
   */
  webhookSecrets?: WebhookSecretsSettings;
}
