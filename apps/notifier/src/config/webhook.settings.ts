import { Expose, Transform } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsBoolean, IsInt, Max, Min } from 'class-validator';
import { BooleanSetting } from '@sts/platform';

const DAY_MS = 24 * 3600_000;

/**
 * The delays before the 2nd, 3rd, ... attempt of a delivery (Standard
 * Webhooks' and Svix's schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
 * about 27 h in all, then the delivery has failed.
 */
export const DEFAULT_RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

/** The webhook dispatcher's settings (`WEBHOOKS_*`); apps/notifier/README.md (Webhooks) documents each. */
export class WebhookSettings {
  /** The intake and the dispatcher run in this replica (they need WEBHOOK_SECRETS_KEK). */
  @BooleanSetting('WEBHOOKS_ENABLED')
  @IsBoolean()
  enabled: boolean = true;

  /**
   * Deliver to loopback, private and link-local addresses too: a development
   * setting (`npm start` turns it on), never for a deployment whose users
   * are not its operators. The gateway reads it too, to accept such URLs.
   */
  @BooleanSetting('WEBHOOKS_ALLOW_PRIVATE_ADDRESSES')
  @IsBoolean()
  allowPrivateAddresses: boolean = false;

  /** One attempt's bound: resolving, connecting, sending and reading the answer. */
  @Expose({ name: 'WEBHOOKS_TIMEOUT_MS' })
  @IsInt()
  @Min(100)
  @Max(60_000)
  timeoutMs: number = 10_000;

  /** The delays between attempts, in ms, comma-separated; one more attempt than delays. */
  @Expose({ name: 'WEBHOOKS_RETRY_SCHEDULE_MS' })
  @Transform(({ value }) =>
    typeof value === 'string' ? value.split(',').map((delay) => Number(delay.trim())) : value,
  )
  @IsArray()
  @ArrayNotEmpty()
  @IsInt({ each: true })
  @Min(1, { each: true })
  retryScheduleMs: number[] = DEFAULT_RETRY_SCHEDULE_MS;

  /** An endpoint whose attempts have failed for this long, without a success between, is disabled. */
  @Expose({ name: 'WEBHOOKS_DISABLE_AFTER_MS' })
  @IsInt()
  @Min(1)
  disableAfterMs: number = 5 * DAY_MS;

  /** Deliveries sent at once by this replica. */
  @Expose({ name: 'WEBHOOKS_CONCURRENCY' })
  @IsInt()
  @Min(1)
  @Max(256)
  concurrency: number = 16;

  /** How often an idle dispatcher looks for deliveries that fell due. */
  @Expose({ name: 'WEBHOOKS_POLL_MS' })
  @IsInt()
  @Min(10)
  @Max(60_000)
  pollMs: number = 1_000;
}
