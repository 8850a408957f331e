import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { allStreams } from '@sts/contracts';
import { jetStreamPublisher, OutboxRelay } from '@sts/persistence';
import { ensureStreams, NatsLink, type NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from '../../infrastructure/tokens';

/** A publish waits this long for JetStream's ack before the row is left for the next poll. */
const PUBLISH_TIMEOUT_MS = 2_000;
/** While NATS or Postgres is gone the relay fails every poll: one warning per this interval. */
const WARN_EVERY_MS = 10_000;

/**
 * Runs the outbox relay inside the gateway: every replica relays, rows are
 * claimed with SKIP LOCKED. With NATS down a poll publishes nothing and holds
 * no row lock longer than it must (it does not even try); rows wait, committed,
 * until NATS is back.
 */
@Injectable()
export class GatewayOutbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('outbox');
  private relay?: OutboxRelay;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly link: NatsLink,
  ) {}

  private lastWarningMs = 0;

  async onApplicationBootstrap(): Promise<void> {
    await ensureStreams(
      await this.nats.jetstreamManager(),
      allStreams(this.config.settings.natsPrefix),
    );
    const publish = jetStreamPublisher(this.nats.jetstream({ timeout: PUBLISH_TIMEOUT_MS }));
    this.relay = new OutboxRelay(
      this.dataSource,
      async (row) => {
        if (!this.link.connected) {
          throw new Error('NATS is not connected');
        }
        await publish(row);
      },
      {
        onError: (error) => {
          if (Date.now() - this.lastWarningMs < WARN_EVERY_MS) {
            return;
          }
          this.lastWarningMs = Date.now();
          this.logger.warn({ err: error }, 'outbox relay failed; retrying on the next poll');
        },
      },
    );
    this.relay.start();
  }

  /** Publish what was just committed without waiting for the next poll. */
  kick(): void {
    void this.relay?.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }
}
