import type { DataSource } from 'typeorm';
import { CredentialCipher, type Logger, type NatsConnection } from '@sts/platform';
import type { NotifierSettings } from '../config/notifier.settings';
import type { WebhookSeries } from '../notifier.metrics';
import { OutboundPost } from './outbound-post';
import { RetrySchedule } from './retry-schedule';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookIntake } from './webhook-intake';
import { WebhookSender } from './webhook-sender';

/**
 * Webhook delivery in this replica (apps/notifier/README.md, Webhooks): the
 * intake, which owes deliveries from the events stream, and the dispatcher,
 * which sends them. Every replica runs both; they share their work through
 * the durable consumer and the deliveries' claims.
 */
export class WebhookService {
  private constructor(
    private readonly intake: WebhookIntake,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  /** The service the settings ask for; null with WEBHOOKS_ENABLED=false. */
  static fromSettings(
    settings: NotifierSettings,
    db: DataSource,
    nats: NatsConnection,
    series: WebhookSeries,
    log: Logger,
  ): WebhookService | null {
    const { webhooks, webhookSecrets } = settings;
    if (!webhooks.enabled || !webhookSecrets) {
      return null;
    }
    const cipher = CredentialCipher.fromSettings(
      webhookSecrets.webhookSecretsKekId,
      webhookSecrets.webhookSecretsKek,
      webhookSecrets.webhookSecretsOldKeks,
    );
    const webhookLog = log.child({ component: 'webhooks' });
    const outbound = new OutboundPost({
      allowPrivateAddresses: webhooks.allowPrivateAddresses,
      timeoutMs: webhooks.timeoutMs,
    });
    return new WebhookService(
      new WebhookIntake(nats, settings.natsPrefix, db, series, webhookLog),
      new WebhookDispatcher(
        db,
        new WebhookSender(cipher, outbound),
        new RetrySchedule(webhooks.retryScheduleMs),
        {
          concurrency: webhooks.concurrency,
          timeoutMs: webhooks.timeoutMs,
          pollMs: webhooks.pollMs,
          disableAfterMs: webhooks.disableAfterMs,
        },
        series,
        webhookLog,
      ),
    );
  }

  async start(): Promise<void> {
    await this.intake.start();
    this.dispatcher.start();
  }

  /** The intake first (nothing more is owed), then the dispatcher (sends in flight handed back). */
  async stop(): Promise<void> {
    await this.intake.stop();
    await this.dispatcher.stop();
  }
}
