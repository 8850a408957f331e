import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { jetstream } from '@nats-io/jetstream';
import { allStreams } from '@sts/contracts';
import {
  CommittedPublisher,
  jetStreamPublisher,
  OutboxRelay,
  type CommittedRow,
} from '@sts/persistence';
import { ensureStreamsAtBoot, NatsLink, type NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from '../../infrastructure/tokens';

/** A publish waits this long for JetStream's ack before the row is left for the next poll. */
const PUBLISH_TIMEOUT_MS = 2_000;
/** While NATS or Postgres is gone the relay fails every poll: one warning per this interval. */
const WARN_EVERY_MS = 10_000;
/**
 * The poll leaves rows younger than this to the replica that committed them
 * (it publishes them itself right after the commit): it takes what a failed
 * publish or a dead replica left, this long after the commit at the latest.
 */
const POLL_GRACE_MS = 2_000;

/**
 * Runs the outbox inside the gateway. A create's start command is published
 * by the replica that committed it, right after the commit, and marked with
 * the others acknowledged meanwhile (CommittedPublisher); the relay's poll,
 * on every replica (rows claimed with SKIP LOCKED), publishes whatever that
 * missed. With NATS down a poll publishes nothing and holds no row lock
 * longer than it must (it does not even try); rows wait, committed, until
 * NATS is back.
 */
@Injectable()
export class GatewayOutbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('outbox');
  private relay?: OutboxRelay;
  private committed?: CommittedPublisher;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly link: NatsLink,
  ) {}

  private lastWarningMs = 0;

  async onApplicationBootstrap(): Promise<void> {
    await ensureStreamsAtBoot(
      this.nats,
      allStreams(this.config.settings.natsPrefix),
      this.config.settings.natsReplicas,
    );
    const jetStream = jetStreamPublisher(jetstream(this.nats, { timeout: PUBLISH_TIMEOUT_MS }));
    const publish = async (row: CommittedRow): Promise<void> => {
      if (!this.link.connected) {
        throw new Error('NATS is not connected');
      }
      await jetStream(row);
    };
    const onError = (error: unknown): void => {
      if (Date.now() - this.lastWarningMs < WARN_EVERY_MS) {
        return;
      }
      this.lastWarningMs = Date.now();
      this.logger.warn({ err: error }, 'outbox publish failed; the relay retries on its next poll');
    };
    this.committed = new CommittedPublisher(this.dataSource, publish, { onError });
    this.relay = new OutboxRelay(this.dataSource, publish, { graceMs: POLL_GRACE_MS, onError });
    this.relay.start();
  }

  /** Publishes a row this replica has just committed (the relay's poll covers a failure). */
  publishCommitted(row: CommittedRow): void {
    if (this.committed) {
      this.committed.publishCommitted(row);
    } else {
      this.kick();
    }
  }

  /** Publish what was just committed without waiting for the next poll. */
  kick(): void {
    void this.relay?.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.committed?.flush().catch(() => undefined);
    await this.relay?.stop();
  }
}
