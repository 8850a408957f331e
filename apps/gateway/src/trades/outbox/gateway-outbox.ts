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
import { ensureStreams, type NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from '../../infrastructure/tokens';

/** Runs the outbox relay inside the gateway: every replica relays, rows are claimed with SKIP LOCKED. */
@Injectable()
export class GatewayOutbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('outbox');
  private relay?: OutboxRelay;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureStreams(
      await this.nats.jetstreamManager(),
      allStreams(this.config.settings.natsPrefix),
    );
    this.relay = new OutboxRelay(this.dataSource, jetStreamPublisher(this.nats.jetstream()), {
      onError: (error) =>
        this.logger.warn({ err: error }, 'outbox relay failed; retrying on the next poll'),
    });
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
